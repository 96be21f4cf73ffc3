import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import Fastify from 'fastify';
import pg from 'pg';

/**
 * The floor: the least a JSON-over-HTTP invoice API on this stack can do per request. A bare Fastify
 * route runs one INSERT (create), one primary-key SELECT (get) or one page SELECT with its count
 * (list) through `pg`, with the same pool size as Paydesk, and nothing else: no auth, no validation,
 * no envelope, no rate limit, no outbox.
 * Its table is FIXED: the invoice row of the first release (migration 0001 plus 0002's pay_address,
 * 14 columns, with 0001's indexes). It must not follow our schema: a floor that grows with every
 * column we add hides our own weight (issue 37). Change it only on purpose, and say so in
 * bench/README.md's table of figures per commit.
 *
 * On PostgreSQL it shares the benchmark's database (in its own table). On PGlite (`pglite://<dir>`)
 * it opens its own embedded database the way Paydesk does (a `pg` pool over one in-process PGlite),
 * since one PGlite belongs to one process.
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
  return new pg.Pool(createPgConfig(pglite) as pg.PoolConfig);
}

const FLOOR_TABLE = `
  create table if not exists floor_invoices (
    id                  text primary key,
    project_id          text not null,
    status              text not null check (status in ('pending', 'paid', 'expired', 'failed')),
    amount              numeric(17, 2) not null check (amount > 0),
    currency            text not null,
    network             text not null,
    order_id            text,
    metadata            jsonb not null default '{}',
    payment_expires_at  timestamptz not null,
    paid_at             timestamptz,
    tx_hash             text,
    pay_address         text not null,
    created_at          timestamptz not null,
    updated_at          timestamptz not null
  );
  create index if not exists floor_invoices_project_created_idx on floor_invoices (project_id, created_at desc, id desc);
  create index if not exists floor_invoices_project_status_created_idx
    on floor_invoices (project_id, status, created_at desc, id desc);
  create index if not exists floor_invoices_project_order_idx on floor_invoices (project_id, order_id)
    where order_id is not null`;

const pool = await openPool(databaseUrl);
await pool.query(FLOOR_TABLE);
const insertSql = `insert into floor_invoices (id, project_id, status, amount, currency, network, order_id, metadata,
                                              payment_expires_at, pay_address, created_at, updated_at)
   values ($1, 'prj_floor', 'pending', $2, 'USDT', 'sandbox', $3, '{}', $4, $6, $5, $5)
   returning *`;
// A page of 20, newest first, and the total: what Paydesk's first list page answers.
const listSql = `select *, count(*) over () as total from floor_invoices where project_id = 'prj_floor'
   order by created_at desc, id desc limit 20`;

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

app.get('/invoices', async () => {
  const { rows } = await pool.query(listSql);
  return { data: rows, total: rows[0]?.total ?? 0 };
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
