import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ok } from '../http/envelope.js';
import { errorResponses, Success } from '../http/schemas.js';
import { createWriter, invoiceReader } from '../invoices/repository.js';
import { rateBookOf } from '../rates/registry.js';

const Histogram = Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.Integer({ minimum: 1 }), {
  description: 'How many statements took each batch size (the key), since the process started',
  examples: [{ '1': 120, '7': 33 }],
});

const Batched = (statements: string, requests: string) =>
  Type.Object({
    statements: Type.Integer({ description: statements }),
    requests: Type.Integer({ description: requests }),
    batch_sizes: Histogram,
  });

function summary(sizes: ReadonlyMap<number, number>) {
  return {
    statements: [...sizes.values()].reduce((a, b) => a + b, 0),
    requests: [...sizes].reduce((a, [size, n]) => a + size * n, 0),
    batch_sizes: Object.fromEntries([...sizes].sort((a, b) => a[0] - b[0]).map(([k, v]) => [String(k), v])),
  };
}

/**
 * GET /v1/admin/metrics: what this instance has done since it started, for an operator's dashboard
 * or a benchmark: memory, and how creates and gets were batched (each instance has its own figures).
 */
export const metricsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'adminMetrics',
        summary: "This instance's figures since it started",
        tags: ['Admin'],
        response: {
          200: Success(
            Type.Object({
              process: Type.Object({
                rss_bytes: Type.Integer(),
                heap_used_bytes: Type.Integer(),
                uptime_seconds: Type.Number(),
              }),
              invoice_creates: Batched('Statements that wrote new invoices', 'Create requests they carried'),
              invoice_reads: Batched('Statements that read invoices by id', 'Get requests they answered'),
              rate_source_calls: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
                description:
                  'Requests this instance sent to each exchange-rate source (contract §19); answers taken from the shared cache are not counted',
                examples: [{ kraken: 12, coinbase: 12, ecb: 12 }],
              }),
            }),
            'The figures',
          ),
          ...errorResponses(401, 405, 429, 500),
        },
      },
    },
    async (request) => {
      const memory = process.memoryUsage();
      return ok(request, 'Metrics', {
        process: {
          rss_bytes: memory.rss,
          heap_used_bytes: memory.heapUsed,
          uptime_seconds: Math.round(process.uptime() * 10) / 10,
        },
        invoice_creates: summary(createWriter(app.db).batchSizes()),
        invoice_reads: summary(invoiceReader(app.db).batchSizes()),
        rate_source_calls:
          rateBookOf(app.db)?.calls() ?? Object.fromEntries(app.config.rates.sources.map((s) => [s, 0])),
      });
    },
  );
};
