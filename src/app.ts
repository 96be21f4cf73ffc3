import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { Kysely } from 'kysely';
import { guardAdminApi } from './admin/authorize.js';
import { metricsRoutes } from './admin/metrics.js';
import { brandingAdminRoutes } from './branding/admin.routes.js';
import { BrandingSchema } from './branding/branding.js';
import { sendPageNotFound } from './checkout/errors.js';
import { refundClaimRoutes } from './checkout/refund.routes.js';
import { checkoutRoutes } from './checkout/routes.js';
import { collectionAdminRoutes } from './collections/admin.routes.js';
import { CollectionSchema } from './collections/collection.js';
import type { Config } from './config.js';
import { dashboardRoutes } from './dashboard/routes.js';
import type { DatabaseHandle } from './db/database.js';
import type { Database } from './db/schema.js';
import { openApiOptions } from './docs/openapi.js';
import { healthRoutes } from './health/routes.js';
import { clientErrorHandler, rememberEarlyAnswers } from './http/client-error.js';
import { type Drain, registerDrain } from './http/drain.js';
import { registerErrorHandler } from './http/error-handler.js';
import type { FieldError } from './http/errors.js';
import { guardInput, parseJsonBody, parseQueryString } from './http/input.js';
import { redactingChildLogger } from './http/log-redaction.js';
import type { RateLimitStore } from './http/rate-limit.js';
import { registerRequestLog } from './http/request-log.js';
import { onUnroutableRequest, registerRouteFallbacks } from './http/routing.js';
import { ErrorEnvelope } from './http/schemas.js';
import { traceIdFor } from './http/trace.js';
import { fastifyTrustProxy } from './http/trust-proxy.js';
import { createValidation, displayName, noControlCharacters } from './http/validation.js';
import { idempotencyKeyFormat } from './invoices/idempotency.js';
import { amountFormat, InvoiceSchema, statusListFormat } from './invoices/invoice.js';
import { returnUrlFormat } from './invoices/return-url.js';
import { invoiceRoutes } from './invoices/routes.js';
import { PaymentLinkSchema, timestampFormat } from './links/link.js';
import { linkPageRoutes } from './links/page.routes.js';
import { paymentLinkRoutes } from './links/routes.js';
import { merchantAdminRoutes } from './merchants/admin.routes.js';
import { type Authenticator, createAuthenticator, type Principal } from './merchants/authenticate.js';
import { AccountSchema, ApiKeySchema, ProjectSchema } from './merchants/merchant.js';
import { guardMerchantApi, merchantRoutes } from './merchants/routes.js';
import { networkAdminRoutes } from './networks/admin.routes.js';
import { posRoutes } from './pos/routes.js';
import type { RateBook } from './rates/book.js';
import { openRates } from './rates/open.js';
import { attachRateBook } from './rates/registry.js';
import { refundActionRoutes } from './refunds/action.routes.js';
import { RefundSchema } from './refunds/refund.js';
import { refundRoutes } from './refunds/routes.js';
import { paymentAmountFormat, sandboxRoutes } from './sandbox/admin.routes.js';
import { loadSecretKey, type SecretKey } from './secrets/key.js';
import { userAdminRoutes } from './users/admin.routes.js';
import { type ProbeTiming, startNodeProbe } from './watch/probe.js';
import { type Watching, watching } from './watch/watched.js';
import { webhookAdminRoutes } from './webhooks/admin.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Kysely<Database>;
    limiter: RateLimitStore;
    authenticator: Authenticator;
    /** The current time; a parameter so that tests can move it. */
    clock: () => Date;
    /** The HTTP side of a graceful stop (main.ts). */
    drain: Drain;
    /** A value against a route schema's field rules, outside a route (the dashboard's forms). */
    checkFields(schema: object, value: unknown): FieldError[];
    /** Exchange rates for invoices priced in other currencies (contract §19). */
    rates: RateBook;
    /** Which networks (and forwarders) may be offered to payers, as this instance knows (contract §21). */
    watching: Watching;
    /**
     * The key that seals secrets at rest (src/secrets), loaded on first use unless given; undefined on
     * PostgreSQL without PAYDESK_ENCRYPTION_KEY.
     */
    secretKey: () => SecretKey | undefined;
  }
  interface FastifyRequest {
    principal: Principal;
  }
}

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  limiter: RateLimitStore;
  /** A logger options object, or the process's own pino logger (main.ts makes one before the app). */
  logger?: FastifyServerOptions['logger'] | undefined;
  loggerInstance?: FastifyBaseLogger | undefined;
  clock?: () => Date;
  /**
   * Fastify's response serializer compiler, when not its default (the test suite's remembers what it
   * compiled, as every test app compiles the same schemas: test/serializers.ts).
   */
  buildSerializer?: SerializerFactory | undefined;
  /**
   * The instance's rate book (main.ts opens it with the shared Redis cache); without one, the app opens
   * its own, sharing quotes through the database.
   */
  rates?: RateBook | undefined;
  /** How often the nodes are asked whether they answer and have the forwarder factory (tests shorten it). */
  probeTiming?: Partial<ProbeTiming> | undefined;
  /** The key main.ts loaded (PAYDESK_ENCRYPTION_KEY or the key file); without one, loaded on first use. */
  secretKey?: SecretKey | undefined;
}

export const BODY_LIMIT_BYTES = 64 * 1024;

/** Every string format a route schema names, explained rule by rule when a value breaks it. */
function formats(config: Config) {
  return [
    noControlCharacters,
    displayName,
    amountFormat,
    statusListFormat,
    idempotencyKeyFormat,
    paymentAmountFormat,
    timestampFormat,
    returnUrlFormat(config.webhookAllowPrivate),
  ];
}

/** The one place routes and hooks are registered; main.ts and the tests both build the app here. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const validation = createValidation(formats(deps.config));
  const clock = deps.clock ?? (() => new Date());
  const app = Fastify({
    ...(deps.loggerInstance
      ? { loggerInstance: deps.loggerInstance }
      : { logger: deps.logger ?? { level: deps.config.logLevel, redact: ['req.headers.authorization'] } }),
    genReqId: traceIdFor,
    // Contract §21: request.ip is the client X-Forwarded-For names through the trusted proxies only.
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    // Node's parser refuses malformed HTTP before Fastify sees it: answer in the envelope all the same.
    clientErrorHandler,
    childLoggerFactory: redactingChildLogger,
    // One line per request, written when it is answered (http/request-log.ts), not Fastify's two.
    logController: new LogController({ requestIdLogLabel: 'trace_id', disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    // Contract §20: a request whose headers and body have not all arrived in time is answered 408 in
    // the envelope (http/client-error.ts) and its connection closed, so a slow or stalled client never
    // holds a connection for ever. Node checks these bounds on a timer of its own (30 s unless told):
    // a quarter of the request bound keeps the answer close to the bound.
    requestTimeout: deps.config.http.requestTimeoutMs,
    keepAliveTimeout: deps.config.http.keepAliveTimeoutMs,
    http: {
      headersTimeout: deps.config.http.headersTimeoutMs,
      connectionsCheckingInterval: Math.max(250, Math.min(30_000, deps.config.http.requestTimeoutMs / 4)),
    },
    exposeHeadRoutes: false,
    ...(deps.buildSerializer
      ? { schemaController: { compilersFactory: { buildSerializer: deps.buildSerializer } } }
      : {}),
    // A stopping server answers in the envelope itself (http/drain.ts), not with Fastify's own 503.
    return503OnClosing: false,
    // Payers reach /pay/… in a browser: their 404 is the payment page's HTML one.
    frameworkErrors: onUnroutableRequest({
      '/pay/': sendPageNotFound,
      '/refund/': sendPageNotFound,
      '/l/': sendPageNotFound,
    }),
    // Any id that fits in a request line reaches its handler, so a long malformed id is the same 404
    // as an unknown one (contract §4) rather than the router's own 414.
    routerOptions: {
      ignoreTrailingSlash: false,
      maxParamLength: 16 * 1024,
      querystringParser: parseQueryString,
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validation.compiler);
  // Only JSON bodies are accepted; any other Content-Type is a VALIDATION_ERROR (contract §2).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    async (request: FastifyRequest, body: Buffer) => parseJsonBody(request, body),
  );
  app.decorate('config', deps.config);
  app.decorate('db', deps.database.db);
  app.decorate('limiter', deps.limiter);
  app.decorate('clock', clock);
  let secretKey = deps.secretKey;
  // Lazily: an app that never seals anything (scripts/openapi.ts) makes no key file.
  app.decorate('secretKey', () => {
    secretKey ??= loadSecretKey(deps.config)?.key;
    return secretKey;
  });
  const rates =
    deps.rates ?? openRates({ settings: deps.config.rates, db: deps.database.db, log: app.log, clock }).book;
  // /v1/health and the metrics read the book by the database handle, asking no source.
  attachRateBook(deps.database.db, rates);
  app.decorate('rates', rates);
  // Every instance asks the nodes itself, at start and every few minutes: it serves once they answered
  // (or a few seconds passed), so its first invoices already leave unwatched networks out.
  const probe = startNodeProbe(deps.config.networks, app.log, deps.probeTiming);
  app.decorate('watching', watching(deps.config.networks, probe));
  app.addHook('onReady', () => probe.started);
  app.addHook('onClose', async () => probe.stop());
  app.decorate('checkFields', validation.check);
  app.decorate(
    'authenticator',
    await createAuthenticator({
      db: deps.database.db,
      notifier: deps.database.notifier,
      limiter: deps.limiter,
      failureLimit: deps.config.authFailureLimit,
      clock,
    }),
  );
  app.decorateRequest('principal', null as unknown as Principal);

  // Hooks that run on every request are callback-style (no promise per hook per request; issue 37).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Trace-Id', request.id);
    done();
  });
  registerRequestLog(app);
  app.decorate('drain', registerDrain(app));
  rememberEarlyAnswers(app);
  // After authentication and rate limits (onRequest), before the schemas: text no column can hold.
  app.addHook('preValidation', (request, _reply, done) => {
    guardInput(request);
    done();
  });
  registerErrorHandler(app, validation);
  registerRouteFallbacks(app);

  app.addSchema(ErrorEnvelope);
  app.addSchema(InvoiceSchema);
  app.addSchema(AccountSchema);
  app.addSchema(ProjectSchema);
  app.addSchema(ApiKeySchema);
  app.addSchema(BrandingSchema);
  app.addSchema(CollectionSchema);
  app.addSchema(RefundSchema);
  app.addSchema(PaymentLinkSchema);
  await app.register(swagger, openApiOptions(deps.config));

  await app.register(healthRoutes, { prefix: '/v1' });
  await app.register(
    async (merchant) => {
      guardMerchantApi(merchant);
      await merchant.register(merchantRoutes);
      await merchant.register(invoiceRoutes);
      await merchant.register(refundRoutes);
      await merchant.register(refundActionRoutes);
      await merchant.register(paymentLinkRoutes);
    },
    { prefix: '/v1/merchant' },
  );
  await app.register(
    async (admin) => {
      guardAdminApi(admin);
      await admin.register(merchantAdminRoutes);
      await admin.register(metricsRoutes);
      await admin.register(sandboxRoutes);
      await admin.register(webhookAdminRoutes);
      await admin.register(networkAdminRoutes);
      await admin.register(brandingAdminRoutes);
      await admin.register(collectionAdminRoutes);
      await admin.register(userAdminRoutes);
    },
    { prefix: '/v1/admin' },
  );
  await app.register(checkoutRoutes, { prefix: '/pay' });
  await app.register(refundClaimRoutes, { prefix: '/refund' });
  await app.register(linkPageRoutes, { prefix: '/l' });
  await app.register(dashboardRoutes, { prefix: '/dashboard' });
  await app.register(posRoutes, { prefix: '/pos' });

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // @fastify/swagger-ui overrides `url` with its own ./json; Swagger UI loads a `urls` list instead when
  // one is given, so /docs reads /v1/openapi.json.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { urls: [{ url: '/v1/openapi.json', name: 'Paydesk API v1' }] },
  });
  return app;
}
