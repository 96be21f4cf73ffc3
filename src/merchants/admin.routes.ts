import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { byOperator } from '../audit/audit.js';
import { ok } from '../http/envelope.js';
import { errorResponses, PathId, Success } from '../http/schemas.js';
import {
  Currency,
  EvmXpub,
  InvoiceTtlSeconds,
  Name,
  NetworkName,
  NewKeySchema,
  PaymentMethods,
  PayoutAddress,
  ProjectChangesSchema,
  SolanaAddress,
  TolerancePercent,
  TronXpub,
  Xpub,
} from './fields.js';
import {
  AccountSchema,
  ActiveStatusSchema,
  ApiKeySchema,
  ProjectSchema,
  toAccount,
  toApiKey,
  toProject,
} from './merchant.js';
import * as merchants from './service.js';

const AccountParams = Type.Object({
  id: PathId('acct', 'No account with this id', 'The account id, acct_…'),
});
const ProjectParams = Type.Object({ id: PathId('prj', 'No project with this id', 'The project id, prj_…') });
const KeyParams = Type.Object({ id: PathId('key', 'No API key with this id', 'The API key id, key_…') });
const ADMIN_ERRORS = errorResponses(401, 404, 405, 422, 429, 500);
const AccountRef = Type.Ref(AccountSchema);
const ProjectRef = Type.Ref(ProjectSchema);
const ApiKeyRef = Type.Ref(ApiKeySchema);
const tags = ['Admin'];

/** The operator's API for accounts, projects and keys (contract §8), under /v1/admin (see app.ts). */
export const merchantAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/accounts',
    {
      schema: {
        operationId: 'adminCreateAccount',
        summary: 'Create an account',
        tags,
        body: Type.Object({ name: Name }, { additionalProperties: false }),
        response: { 201: Success(AccountRef, 'The account'), ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => {
      const account = await merchants.createAccount(app.db, request.body, byOperator(app.clock()));
      reply.code(201);
      return ok(request, 'Account created', toAccount(account));
    },
  );

  app.patch(
    '/accounts/:id',
    {
      schema: {
        operationId: 'adminUpdateAccount',
        summary: 'Activate or deactivate an account',
        tags,
        params: AccountParams,
        body: Type.Object({ status: ActiveStatusSchema }, { additionalProperties: false }),
        response: { 200: Success(AccountRef, 'The account'), ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const account = await merchants.setAccountStatus(
        app.db,
        request.params.id,
        request.body.status,
        byOperator(app.clock()),
      );
      return ok(request, 'Account updated', toAccount(account));
    },
  );

  app.post(
    '/projects',
    {
      schema: {
        operationId: 'adminCreateProject',
        summary: 'Create a project',
        tags,
        body: Type.Object(
          {
            account_id: Type.String({ minLength: 1 }),
            name: Name,
            currency: Type.Optional({ ...Currency, default: 'USDT' }),
            network: Type.Optional({
              ...NetworkName,
              description: `${NetworkName.description}; alone, the project accepts that network's tokens payable in \`currency\` (default \`sandbox\`)`,
            }),
            payment_methods: Type.Optional(PaymentMethods),
            xpub: Type.Optional(Xpub),
            evm_xpub: Type.Optional(EvmXpub),
            tron_xpub: Type.Optional(TronXpub),
            payout_address: Type.Optional(PayoutAddress),
            solana_address: Type.Optional(SolanaAddress),
            underpayment_tolerance_percent: Type.Optional(TolerancePercent),
            invoice_ttl_seconds: Type.Optional(InvoiceTtlSeconds),
          },
          { additionalProperties: false },
        ),
        response: { 201: Success(ProjectRef, 'The project'), ...ADMIN_ERRORS },
      },
    },
    async (request, reply) => {
      const project = await merchants.createProject(
        app.db,
        app.config,
        request.body,
        byOperator(app.clock()),
      );
      reply.code(201);
      return ok(request, 'Project created', toProject(project, app.config.networks));
    },
  );

  app.patch(
    '/projects/:id',
    {
      schema: {
        operationId: 'adminUpdateProject',
        summary: 'Change a project',
        tags,
        params: ProjectParams,
        body: ProjectChangesSchema,
        response: { 200: Success(ProjectRef, 'The project'), ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const project = await merchants.updateProject(
        app.db,
        app.config,
        request.params.id,
        request.body,
        byOperator(app.clock()),
      );
      return ok(request, 'Project updated', toProject(project, app.config.networks));
    },
  );

  app.post(
    '/projects/:id/api-keys',
    {
      schema: {
        operationId: 'adminCreateApiKey',
        summary: 'Issue an API key (the secret is shown only in this response)',
        tags,
        params: ProjectParams,
        body: NewKeySchema,
        response: {
          201: Success(
            Type.Object({
              api_key: ApiKeyRef,
              secret: Type.String({ pattern: '^svc_secret_[A-Za-z0-9]{32,}$' }),
            }),
            'The key and its secret',
          ),
          ...ADMIN_ERRORS,
        },
      },
      // Every field is optional, so a bare POST without a body issues an unnamed key.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const { apiKey, secret } = await merchants.issueApiKey(
        app.db,
        request.params.id,
        request.body ?? {},
        byOperator(app.clock()),
      );
      reply.code(201);
      return ok(request, 'API key created; store the secret now, it is not shown again', {
        api_key: toApiKey(apiKey),
        secret,
      });
    },
  );

  app.post(
    '/api-keys/:id/revoke',
    {
      schema: {
        operationId: 'adminRevokeApiKey',
        summary: 'Revoke an API key, at once, on every instance',
        tags,
        params: KeyParams,
        response: { 200: Success(ApiKeyRef, 'The revoked key'), ...ADMIN_ERRORS },
      },
    },
    async (request) => {
      const apiKey = await merchants.revokeApiKey(app.db, request.params.id, byOperator(app.clock()));
      return ok(request, 'API key revoked', toApiKey(apiKey));
    },
  );
};
