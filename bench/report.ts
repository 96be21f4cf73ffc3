import type { Measurement } from './load.js';

export interface Row {
  scenario: string;
  paydesk: Measurement;
  floor?: Measurement | undefined;
}

export interface Target {
  name: string;
  measured: string;
  pass: boolean;
}

export interface BenchResults {
  rows: Row[];
  create: Row;
  get: Row;
  /** The first page of the project create filled, against the floor's page. */
  list: Row;
  listSmall: Row;
  listLarge: Row;
  maxRssBytes: number;
  /** The floor's peak, for context: on PGlite both processes carry the same WebAssembly engine. */
  floorMaxRssBytes?: number;
  targets?: Target[];
}

const MB = 1024 * 1024;

const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.NaN);
const times = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : 'n/a');

/**
 * Issue 37's targets, each with the measured value it was judged on. The floor is the fixed 14-column
 * invoice row of the first release (bench/floor.ts), so a ratio here is our weight over a bare INSERT.
 */
export function judge(r: BenchResults): Target[] {
  const floorOf = (row: Row) => row.floor as Measurement;
  const createRps = ratio(r.create.paydesk.rps, floorOf(r.create).rps);
  const createP99 = ratio(r.create.paydesk.p99Ms, floorOf(r.create).p99Ms);
  const getRps = ratio(r.get.paydesk.rps, floorOf(r.get).rps);
  const getP99 = ratio(r.get.paydesk.p99Ms, floorOf(r.get).p99Ms);
  const listRps = ratio(r.list.paydesk.rps, floorOf(r.list).rps);
  const listGrowth = ratio(r.listLarge.paydesk.p99Ms, r.listSmall.paydesk.p99Ms);
  const failures = r.rows.reduce((n, row) => n + row.paydesk.failures + (row.floor?.failures ?? 0), 0);
  return [
    { name: 'create req/s >= 1.5x floor', measured: times(createRps), pass: createRps >= 1.5 },
    { name: 'create p99 <= 1.0x floor', measured: times(createP99), pass: createP99 <= 1.0 },
    { name: 'get req/s >= 2.0x floor', measured: times(getRps), pass: getRps >= 2.0 },
    { name: 'get p99 <= 1.0x floor', measured: times(getP99), pass: getP99 <= 1.0 },
    { name: 'list req/s >= 1.5x floor', measured: times(listRps), pass: listRps >= 1.5 },
    ...(r.listLarge === r.listSmall
      ? []
      : [
          {
            name: `list p99, ${r.listLarge.scenario.replace(/^list, /, '')} <= 1.5x 1k`,
            measured: times(listGrowth),
            pass: listGrowth <= 1.5,
          },
        ]),
    {
      name: 'Paydesk RSS <= 150 MB under load',
      measured: `${(r.maxRssBytes / MB).toFixed(0)} MB${r.floorMaxRssBytes ? ` (floor ${(r.floorMaxRssBytes / MB).toFixed(0)} MB)` : ''}`,
      pass: r.maxRssBytes > 0 && r.maxRssBytes <= 150 * MB,
    },
    { name: 'every response 2xx', measured: `${failures} failed`, pass: failures === 0 },
  ];
}

const pad = (s: string, n: number) => s.padStart(n);
const ms = (v: number | undefined) => (v === undefined ? '-' : String(v));
const rps = (v: number | undefined) => (v === undefined ? '-' : Math.round(v).toLocaleString('en-US'));

export function formatTable(header: string, r: BenchResults, targets: Target[]): string {
  const lines = [header, ''];
  lines.push(
    `${'scenario'.padEnd(24)}${pad('paydesk req/s', 14)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}  |` +
      `${pad('floor req/s', 12)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}  |${pad('req/s', 7)}${pad('p99', 7)}`,
  );
  for (const row of r.rows) {
    const p = row.paydesk;
    const f = row.floor;
    lines.push(
      `${row.scenario.padEnd(24)}${pad(rps(p.rps), 14)}${pad(ms(p.p50Ms), 8)}${pad(ms(p.p99Ms), 8)}  |` +
        `${pad(rps(f?.rps), 12)}${pad(ms(f?.p50Ms), 8)}${pad(ms(f?.p99Ms), 8)}  |` +
        `${pad(f ? times(ratio(p.rps, f.rps)) : '-', 7)}${pad(f ? times(ratio(p.p99Ms, f.p99Ms)) : '-', 7)}`,
    );
  }
  lines.push(
    '',
    'CPU per request, µs (the server process + every PostgreSQL process + the load generator; steadier than req/s):',
  );
  for (const row of r.rows) {
    const cpu = (m: Measurement | undefined) =>
      m
        ? `${Math.round(m.cpu.serverUs)} + ${Math.round(m.cpu.databaseUs)} + ${Math.round(m.cpu.loadUs)}`
        : '-';
    lines.push(
      `${row.scenario.padEnd(24)}${pad(`paydesk ${cpu(row.paydesk)}`, 28)}${pad(`floor ${cpu(row.floor)}`, 28)}`,
    );
  }
  lines.push('', `${'target'.padEnd(44)}${'measured'.padEnd(12)}result`);
  for (const t of targets)
    lines.push(`${t.name.padEnd(44)}${t.measured.padEnd(11)} ${t.pass ? 'PASS' : 'MISS'}`);
  return lines.join('\n');
}
