import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

/**
 * The floor: the least a JSON-over-HTTP invoice API on this stack can do per request. A bare Fastify
 * route runs the same single INSERT (create) or primary-key SELECT (get) through `pg`, with the same
 * pool size as Paydesk, and nothing else: no auth, no validation, no envelope, no rate limit.
 * Its table is a copy of `invoices` as the migrations left it (columns, checks, defaults and indexes;
 * LIKE copies no trigger and no foreign key), so it must start after Paydesk has migrated the database,
 * and its INSERT writes the columns Paydesk's create writes.
 */
const databaseUrl = process.env.DATABASE_URL;
const port = Number(process.env.PORT);
if (!databaseUrl || !Number.isInteger(port)) {
  process.stderr.write('floor: DATABASE_URL and PORT are required\n');
  process.exit(1);
}

const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
await pool.query('create table if not exists floor_invoices (like invoices including all)');
// pay_address arrived with migration 0002 (not null, no default); fill it as the sandbox network does.
const hasPayAddress =
  (
    await pool.query(
      `select 1 from information_schema.columns where table_name = 'floor_invoices' and column_name = 'pay_address'`,
    )
  ).rowCount === 1;
const insertSql = `insert into floor_invoices (id, project_id, status, amount, currency, network, order_id, metadata,
                     payment_expires_at, created_at, updated_at${hasPayAddress ? ', pay_address' : ''})
   values ($1, 'prj_floor', 'pending', $2, 'USDT', 'sandbox', $3, '{}', $4, $5, $5${hasPayAddress ? ', $6' : ''})
   returning *`;

// Errors only: a failing floor must say why (in bench/results/floor.log).
const app = Fastify({ logger: { level: 'error' } });

app.get('/health', async () => ({ ok: true }));

app.post<{ Body: { amount: string; order_id?: string } }>('/invoices', async (request, reply) => {
  const now = new Date();
  const params = [
    `inv_${randomBytes(18).toString('base64url')}`,
    request.body.amount,
    request.body.order_id ?? null,
    new Date(now.getTime() + 3_600_000),
    now,
  ];
  if (hasPayAddress) params.push(`0x${randomBytes(20).toString('hex')}`);
  const { rows } = await pool.query(insertSql, params);
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
