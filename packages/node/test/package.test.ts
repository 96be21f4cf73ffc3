import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { removeTempDirs, SLOW, tempDir } from '../../../test/process.js';
import { type Server, startServer } from './server.js';

const run = promisify(execFile);
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const TSC = path.join(
  path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')),
  'bin/tsc',
);

// `npm test` runs us with npm's own variables set (workspace, prefix …); the npm we start must not inherit them.
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
const npm = (args: string[], cwd: string) => run('npm', args, { cwd, env: cleanEnv() });

let s: Server;
let consumer: string;
let packed: string[];

/** What a merchant does: `npm install` the published tarball into a project of their own. */
beforeAll(async () => {
  s = await startServer();
  const out = await tempDir();
  const { stdout } = await npm(['pack', '--json', '--pack-destination', out], PACKAGE);
  const [info] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  if (!info) throw new Error(`npm pack printed ${stdout}`);
  packed = info.files.map((f) => f.path);
  consumer = await tempDir();
  await writeFile(path.join(consumer, 'package.json'), '{ "name": "a-shop", "private": true }\n');
  // --offline: the package must need nothing from a registry (no dependencies).
  await npm(['install', '--offline', '--no-audit', '--no-fund', path.join(out, info.filename)], consumer);
}, SLOW);
afterAll(async () => {
  await s?.close();
  await removeTempDirs();
});

const SCRIPT = (load: string) => `${load}
const paydesk = new Paydesk(process.env.PAYDESK_SECRET_KEY, { baseUrl: process.env.PAYDESK_URL });
(async () => {
  const invoice = await paydesk.invoices.create({ amount: '9.99', order_id: process.env.ORDER });
  const me = await paydesk.me();
  const missing = await paydesk.invoices.retrieve('inv_none').catch((e) => e);
  console.log(JSON.stringify({ id: invoice.id, project: me.project.id, notFound: missing instanceof PaydeskNotFoundError }));
})();
`;

async function runScript(file: string, source: string, order: string) {
  await writeFile(path.join(consumer, file), source);
  const env = { ...cleanEnv(), PAYDESK_SECRET_KEY: s.merchant.secret, PAYDESK_URL: s.baseUrl, ORDER: order };
  const { stdout } = await run(process.execPath, [file], { cwd: consumer, env });
  return JSON.parse(stdout) as { id: string; project: string; notFound: boolean };
}

describe('the npm package, installed from its tarball in a fresh folder', () => {
  test('holds the build, its declarations, the README and the licence, and nothing else', () => {
    expect(packed).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']));
    expect(packed).toEqual(
      expect.arrayContaining(['dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.js']),
    );
    expect(packed).toEqual(expect.arrayContaining(['dist/cjs/index.d.ts', 'dist/cjs/package.json']));
    const others = packed.filter(
      (f) => !f.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(f),
    );
    expect(others).toEqual([]);
    expect(
      packed.filter((f) => f.endsWith('.test.js') || (f.endsWith('.ts') && !f.endsWith('.d.ts'))),
    ).toEqual([]);
  });

  test('has no dependencies', async () => {
    const pkg = JSON.parse(
      await readFile(path.join(consumer, 'node_modules/@paydesk/node/package.json'), 'utf8'),
    );
    expect(pkg.dependencies ?? {}).toEqual({});
  });

  test('works from import (ESM) against a real Paydesk', async () => {
    const out = await runScript(
      'esm.mjs',
      SCRIPT("import { Paydesk, PaydeskNotFoundError } from '@paydesk/node';"),
      'esm-1',
    );
    expect(out).toMatchObject({ project: s.merchant.projectId, notFound: true });
    expect((await s.client().invoices.retrieve(out.id)).order_id).toBe('esm-1');
  });

  test('works from require (CommonJS) against a real Paydesk', async () => {
    const load = "const { Paydesk, PaydeskNotFoundError } = require('@paydesk/node');";
    const out = await runScript('cjs.cjs', SCRIPT(load), 'cjs-1');
    expect(out).toMatchObject({ project: s.merchant.projectId, notFound: true });
    expect((await s.client().invoices.retrieve(out.id)).order_id).toBe('cjs-1');
  });

  test('typechecks for ESM and CommonJS callers, and catches a number where an amount string goes', async () => {
    const use = [
      "import { Paydesk, type Invoice, type WebhookEvent } from '@paydesk/node';",
      "const paydesk = new Paydesk('svc_secret_x');",
      'export async function handle(event: WebhookEvent): Promise<string> {',
      "  if (event.type === 'invoice.payment_detected') return event.data.payment.tx_hash;",
      "  if (event.type === 'webhook.test') return event.data.endpoint_id;",
      "  if (event.type === 'refund.ready' || event.type === 'refund.confirmed') return event.data.refund.id;",
      "  if (event.type === 'collection.confirmed' || event.type === 'collection.failed') return event.data.collection.id;",
      '  const invoice: Invoice = await paydesk.invoices.retrieve(event.data.invoice.id);',
      "  for await (const other of paydesk.invoices.list({ status: ['paid', 'failed'] })) return other.id;",
      '  // @ts-expect-error the amount is a decimal string',
      '  await paydesk.invoices.create({ amount: 10 });',
      '  return invoice.status;',
      '}',
      '',
    ].join('\n');
    await writeFile(path.join(consumer, 'esm.mts'), use);
    await writeFile(path.join(consumer, 'cjs.cts'), use);
    const tsconfig = {
      // Node16: the strictest reading, where CommonJS code cannot require an ES module (NodeNext now can).
      compilerOptions: { module: 'Node16', target: 'ES2022', strict: true, noEmit: true, types: [] },
      files: ['esm.mts', 'cjs.cts'],
    };
    await writeFile(path.join(consumer, 'tsconfig.json'), JSON.stringify(tsconfig));
    const result = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: consumer }).catch(
      (e) => e,
    );
    expect(`${result.stdout ?? ''}${result.stderr ?? ''}`).toBe('');
  });
});
