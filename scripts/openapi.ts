import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { memoryStore } from '../src/http/rate-limit.js';

/**
 * Writes the OpenAPI document to argv[2] (default docs/openapi.json), for `redocly lint` in CI.
 * The admin token only switches the admin routes on so they appear; it is never written anywhere.
 */
async function main() {
  const out = process.argv[2] ?? 'docs/openapi.json';
  const config = loadConfig({
    DATABASE_URL: 'pglite://memory',
    PAYDESK_ADMIN_TOKEN: 'openapi-generation-only',
    LOG_LEVEL: 'silent',
  });
  const database = await openDatabase(config.databaseUrl);
  const limiter = memoryStore();
  const app = await buildApp({ config, database, limiter });
  try {
    await app.ready();
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
    process.stdout.write(`wrote ${out}\n`);
  } finally {
    await app.close();
    await limiter.close();
    await database.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
