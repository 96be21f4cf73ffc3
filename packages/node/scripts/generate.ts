import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTypes, type OpenApiDocument } from './openapi-types.js';

/** The tags of the operations a merchant's backend calls with its secret key. */
export const MERCHANT_TAGS = ['Merchant', 'Invoices', 'Refunds', 'Payment links'];
export const TYPES_FILE = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * `npm run generate -w @paydesk/node [-- <url or file>]` rewrites src/generated/openapi.ts. Without an
 * argument it builds the document from the server's code, as `npm run openapi` does; with one it reads
 * a running server's `/v1/openapi.json` or a saved document.
 */
async function main() {
  const source = process.argv[2];
  const doc = source ? await load(source) : fromServerCode();
  writeFileSync(TYPES_FILE, generateTypes(doc, MERCHANT_TAGS));
  process.stdout.write(`wrote ${path.relative(process.cwd(), TYPES_FILE)}\n`);
}

async function load(source: string): Promise<OpenApiDocument> {
  if (!/^https?:\/\//.test(source)) return JSON.parse(readFileSync(source, 'utf8'));
  const res = await fetch(source);
  if (!res.ok) throw new Error(`GET ${source} answered ${res.status}`);
  return (await res.json()) as OpenApiDocument;
}

function fromServerCode(): OpenApiDocument {
  const dir = mkdtempSync(path.join(tmpdir(), 'paydesk-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/openapi.ts', file], { cwd: ROOT });
    return JSON.parse(readFileSync(file, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
