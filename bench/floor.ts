import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import Fastify from 'fastify';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrate } from '../src/db/migrate.js';

/**
 * The floor: the least a JSON-over-HTTP invoice API on this stack can do per request. A bare Fastify
 * route runs the same single INSERT (create) or primary-key SELECT (get) through `pg`, with the same
 * pool size as Paydesk, and nothing else: no auth, no validation, no envelope, no rate limit.
 * Its table is a copy of `invoices` as the migrations leave it (columns, checks, defaults and indexes;
 * LIKE copies no trigger and no foreign key), and its INSERT writes the columns Paydesk's create writes.
 *
 * On PostgreSQL it shares the benchmark's database (Paydesk has migrated it). On PGlite
 * (`pglite://<dir>`) it opens its own embedded database the way Paydesk does (a `pg` pool over one
 * in-process PGlite) and migrates it itself, since one PGlite belongs to one process.
 */
const databaseUrl = process.env.DATABASE_URL;
const port = Number(process.env.PORT);
if (!databaseUrl || !Number.isInteger(port)) {
  process.stderr.write('floor: DATABASE_URL and PORT are required\n');
  process.exit(1);
}

async function openPool(url: string): Promise<pg.Pool> {
  if (!url.startsWith('pglite://')) return new pg.Pool({ connectionString: url, max: 10 });
  const pglite = await PGlite.create({ dataDir: url.slice('pglite://'.length) });
  const pool = new pg.Pool(createPgConfig(pglite) as pg.PoolConfig);
  const db = new Kysely<never>({ dialect: new PostgresDialect({ pool }) });
  await migrate(db as never);
  return pool;
}

const pool = await openPool(databaseUrl);
await pool.query('create table if not exists floor_invoices (like invoices including all)');
// The methods an invoice offers (contract §15) are a jsonb column like metadata: the floor stores one.
const insertSql = `insert into floor_invoices (id, project_id, status, amount, token_amount, currency, network, order_id,
                     metadata, payment_expires_at, created_at, updated_at, pay_address, payment_methods)
   values ($1, 'prj_floor', 'pending', $2, $2, 'USDT', 'sandbox', $3, '{}', $4, $5, $5, $6,
           jsonb_build_array(jsonb_build_object('network', 'sandbox', 'currency', 'USDT', 'pay_address', $6::text,
                                                'decimals', 6)))
   returning *`;

// Errors only: a failing floor must say why (in bench/results/floor.log).
const app = Fastify({ logger: { level: 'error' } });

app.get('/health', async () => ({ ok: true }));

app.post<{ Body: { amount: string; order_id?: string } }>('/invoices', async (request, reply) => {
  const now = new Date();
  const { rows } = await pool.query(insertSql, [
    `inv_${randomBytes(18).toString('base64url')}`,
    request.body.amount,
    request.body.order_id ?? null,
    new Date(now.getTime() + 3_600_000),
    now,
    `0x${randomBytes(20).toString('hex')}`,
  ]);
  reply.code(201);
  return rows[0];
});

app.get<{ Params: { id: string } }>('/invoices/:id', async (request, reply) => {
  const { rows } = await pool.query('select * from floor_invoices where id = $1', [request.params.id]);
  if (!rows[0]) return reply.code(404).send({ error: 'not found' });
  return rows[0];
});

await app.listen({ port, host: '127.0.0.1' });

const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
