import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { demoBanner } from '../src/merchants/demo.js';
import { onPostgres } from './database.js';
import {
  api,
  BANNER_PRINTED,
  curlAsFetch,
  demoSecret,
  KEY,
  killAll,
  removeTempDirs,
  SLOW,
  startPaydesk,
  tempDir,
} from './process.js';

afterEach(killAll);
afterAll(removeTempDirs);

// Runs once per CI run, in the PGlite run: `npm start` on an empty folder is the embedded database whatever the run tests, so the PostgreSQL run would repeat it unchanged.
describe.skipIf(onPostgres)('quick start (npm start on an empty folder)', () => {
  it(
    'creates ./.paydesk/db, prints a working demo key once with a curl line that creates an invoice, and no key on restart',
    async () => {
      const cwd = await tempDir();
      // The newcomer's command itself; the restart runs the run's build of the same source.
      const first = await startPaydesk({ cwd, npmStart: true });
      await first.waitForStdout(BANNER_PRINTED);
      const secret = demoSecret(first.stdout());

      // The whole banner appears exactly once, and the key appears nowhere outside it.
      const banner = demoBanner(secret, first.baseUrl);
      expect(first.stdout().split(banner)).toHaveLength(2);
      expect(first.stdout().replace(banner, '')).not.toMatch(KEY);
      expect(existsSync(path.join(cwd, '.paydesk', 'db', 'PG_VERSION'))).toBe(true);

      // Beside the key, a sign-in link for the demo dashboard owner: an invite that sets a password.
      const invite = /(http:\/\/\S+\/dashboard\/invite\/[A-Za-z0-9_-]{43})/.exec(first.stdout())?.[1];
      expect(invite).toBeDefined();
      const page = await fetch(invite as string);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Set your password');

      // Both are also kept in a file only the owner can read, which the banner names; the log says
      // where the dashboard is; the key that seals secrets at rest was made, owner-only too.
      const firstStart = path.join(cwd, '.paydesk', 'first-start.txt');
      expect(statSync(firstStart).mode & 0o777).toBe(0o600);
      const saved = readFileSync(firstStart, 'utf8');
      expect(saved).toContain(banner);
      expect(saved).toContain(invite);
      expect(first.stdout()).toContain('Both are also in .paydesk/first-start.txt (readable by you only)');
      expect(first.stdout()).toContain(`the dashboard is at ${first.baseUrl}/dashboard`);
      expect(statSync(path.join(cwd, '.paydesk', 'secret-key')).mode & 0o777).toBe(0o600);

      const me = await api(first, 'GET', '/v1/merchant/me', secret);
      expect(me.status).toBe(200);
      expect(me.body.data.project).toMatchObject({ status: 'active', network: 'sandbox' });
      expect(me.body.data.api_key.last4).toBe(secret.slice(-4));

      const [url, init] = curlAsFetch(first.stdout());
      expect(url).toBe(`${first.baseUrl}/v1/merchant/invoices`);
      const created = await fetch(url, init);
      expect(created.status).toBe(201);
      const invoice = ((await created.json()) as any).data;
      expect(invoice).toMatchObject({ status: 'pending', amount: '10.50', order_id: 'order-1' });
      expect(created.headers.get('location')).toBe(`/v1/merchant/invoices/${invoice.id}`);
      expect(await first.stop()).toEqual({ code: 0, signal: null });

      const second = await startPaydesk({ cwd });
      await second.waitForStdout(/the dashboard is at http:\/\/\S+\/dashboard/);
      const again = await api(second, 'GET', `/v1/merchant/invoices/${invoice.id}`, secret);
      expect(again.status).toBe(200);
      expect(again.body.data.order_id).toBe('order-1');
      expect(await second.stop()).toEqual({ code: 0, signal: null });
      expect(second.stdout()).not.toMatch(KEY);
      expect(second.stdout()).not.toContain('demo project');
      expect(second.stdout()).toContain(`the dashboard is at ${second.baseUrl}/dashboard`);
      expect(readFileSync(firstStart, 'utf8')).toBe(saved);
    },
    SLOW,
  );
});
