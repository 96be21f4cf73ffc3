import pg from 'pg';

export const BENCH_DATABASE = 'paydesk_bench';

/** The benchmark's own database, on the server of `baseUrl`; it never touches any other database. */
export function benchDatabase(baseUrl: string) {
  let unlock: (() => Promise<void>) | undefined;
  const url = new URL(baseUrl);
  url.pathname = `/${BENCH_DATABASE}`;
  const onBase = async (text: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  return {
    url: url.toString(),
    /** The server's maintenance database the benchmark was pointed at. */
    baseUrl,
    /** Takes the benchmark lock, then drops and creates the database. */
    recreate: async () => {
      unlock = await lockBench(baseUrl);
      await onBase(`drop database if exists ${BENCH_DATABASE} with (force)`);
      await onBase(`create database ${BENCH_DATABASE}`);
    },
    /** Only the run holding the lock drops the database, and then lets the lock go. */
    release: async (drop: boolean) => {
      if (!unlock) return;
      if (drop) await onBase(`drop database if exists ${BENCH_DATABASE} with (force)`);
      await unlock();
      unlock = undefined;
    },
  };
}

// Any constant will do, as long as every copy of the benchmark uses the same one.
const BENCH_LOCK_ID = 7_236_051_099;

/**
 * Two runs at once would drop each other's database mid-measurement: the first holds a session-level
 * advisory lock on the server for its whole run, and a second one refuses to start.
 */
export async function lockBench(baseUrl: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: baseUrl });
  client.on('error', () => {}); // a lost lock connection must not crash the run
  await client.connect();
  const { rows } = await client.query('select pg_try_advisory_lock($1) as locked', [BENCH_LOCK_ID]);
  if (!rows[0].locked) {
    await client.end();
    throw new Error(
      'another `npm run bench` is running against this PostgreSQL server; wait for it to finish',
    );
  }
  return () => client.end();
}

export async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * Columns later migrations added without a default, or whose value follows the status; each is
 * written only when the table has it, so the seed keeps working as the schema grows.
 */
const LATER_COLUMNS: Record<string, string> = {
  pay_address: `'0x' || substr(md5(g::text || 'a') || md5(g::text || 'b'), 1, 40)`,
  token_amount: `((g % 100000) + 1)::numeric / 100`,
  amount_paid: `case when s.status = 'paid' then ((g % 100000) + 1)::numeric / 100 else 0 end`,
  payment_methods: `jsonb_build_array(jsonb_build_object('network', p.network, 'currency', p.currency,
    'pay_address', '0x' || substr(md5(g::text || 'a') || md5(g::text || 'b'), 1, 40), 'decimals', 6))`,
};

/**
 * Adds invoices number `from` to `to` (inclusive) to a project in one statement. Invoice n was
 * created n seconds ago, so the newest page stays the same however many older ones follow. As in a
 * live project, one in three is paid; the rest are pending while younger than the project's invoice
 * lifetime (less ten minutes) and expired after, so the expiry worker has nothing to do while lists
 * are measured. The counters trigger runs for every row, as in production: the `total` is right.
 */
export async function seedInvoices(client: pg.Client, projectId: string, from: number, to: number) {
  const present = await client.query<{ column_name: string }>(
    `select column_name from information_schema.columns where table_name = 'invoices' and column_name = any($1)`,
    [Object.keys(LATER_COLUMNS)],
  );
  const later = present.rows.map((r) => r.column_name);
  await client.query(
    `insert into invoices (id, project_id, status, amount, currency, network, order_id, metadata,
                           payment_expires_at, paid_at, tx_hash, created_at, updated_at
                           ${later.map((c) => `, ${c}`).join('')})
     select 'inv_' || replace(gen_random_uuid()::text, '-', ''), p.id,
            s.status, ((g % 100000) + 1)::numeric / 100, p.currency, p.network, 'order-' || g, '{}',
            t.created_at + p.invoice_ttl_seconds * interval '1 second',
            case when s.status = 'paid' then t.created_at + interval '5 minutes' end,
            case when s.status = 'paid' then '0x' || md5(g::text) end,
            t.created_at, t.created_at
            ${later.map((c) => `, ${LATER_COLUMNS[c]}`).join('')}
     from projects p
     cross join generate_series($2::int, $3::int) g
     cross join lateral (select now() - g * interval '1 second' as created_at) t
     cross join lateral (
       select case when g % 3 = 0 then 'paid' when g < p.invoice_ttl_seconds - 600 then 'pending' else 'expired' end as status
     ) s
     where p.id = $1`,
    [projectId, from, to],
  );
  // A database that grew to this size would long have been vacuumed and analysed by autovacuum.
  await client.query('vacuum analyze invoices');
  await client.query('analyze invoice_counts');
  // And its pages would have been written out long ago: flush the seed now, not during the measurement.
  await client.query('checkpoint');
}
