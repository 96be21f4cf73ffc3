/**
 * Screenshots of the payment page in each state: `npx tsx scripts/screenshots.ts`.
 * Starts the app on an in-memory database and a random port, seeds one invoice per state, and writes
 * docs/screenshots/{state}-{phone|desktop}[-dark].png with the system Chromium (dark: the waiting
 * view only, unless `--all`).
 */
import { mkdir } from 'node:fs/promises';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { memoryStore } from '../src/http/rate-limit.js';
import { launchChromium } from '../test/browser/chromium.js';
import { type MovableClock, STATES, sandboxProject, seedStates } from '../test/browser/seed.js';
import { TEST_XPUB, TRON_TEST_XPUB } from '../test/chain/wallet.js';

const OUT = new URL('../docs/screenshots/', import.meta.url);
const TOKEN = 'screenshots-admin-token-0123456789';
const DEVICES = {
  phone: { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 },
};

function movableClock(): MovableClock {
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  clock.advance = (ms: number) => {
    offset += ms;
  };
  return clock;
}

async function main() {
  const database = await openDatabase('pglite://memory');
  await migrate(database.db);
  const config = loadConfig({
    DATABASE_URL: 'pglite://memory',
    PAYDESK_ADMIN_TOKEN: TOKEN,
    LOG_LEVEL: 'warn',
  });
  const limiter = memoryStore();
  const clock = movableClock();
  const app = await buildApp({ config, database, limiter, clock, logger: false });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const ids = await seedStates(app, TOKEN, clock);
  // A real network too: the QR code is then an EIP-681 token transfer.
  const polygon = await sandboxProject(app, TOKEN, { network: 'polygon', currency: 'USDC', xpub: TEST_XPUB });
  const chainInvoice = await polygon('25.00');
  // And TRON, whose QR code is the bare address: the page asks for the amount in words.
  const tron = await sandboxProject(app, TOKEN, { network: 'tron', currency: 'USDT', xpub: TRON_TEST_XPUB });
  const tronInvoice = await tron('25.00');
  await mkdir(OUT, { recursive: true });
  const browser = await launchChromium();
  try {
    for (const [device, options] of Object.entries(DEVICES)) {
      for (const scheme of ['light', 'dark'] as const) {
        const context = await browser.newContext({ ...options, colorScheme: scheme });
        const page = await context.newPage();
        for (const state of STATES) {
          if (scheme === 'dark' && state !== 'waiting' && process.argv[2] !== '--all') continue;
          await page.goto(`${base}/pay/${ids[state]}`);
          const file = `${state}-${device}${scheme === 'dark' ? '-dark' : ''}.png`;
          await page.screenshot({ path: new URL(file, OUT).pathname, fullPage: true });
          process.stdout.write(`docs/screenshots/${file}\n`);
        }
        if (scheme === 'light') {
          for (const [name, invoice] of [
            ['polygon', chainInvoice],
            ['tron', tronInvoice],
          ] as const) {
            await page.goto(`${base}/pay/${invoice.id}`);
            const file = `waiting-${name}-${device}.png`;
            await page.screenshot({ path: new URL(file, OUT).pathname, fullPage: true });
            process.stdout.write(`docs/screenshots/${file}\n`);
          }
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await app.close();
    await limiter.close();
    await database.close();
  }
}

await main();
