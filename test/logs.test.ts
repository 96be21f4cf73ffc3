import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { randomBase62 } from '../src/ids.js';
import { api, demoFolder, killAll, removeTempDirs, SLOW, startPaydesk } from './process.js';

const ADMIN_TOKEN = 'process-test-admin-token-5Yq8Lw2Rz';

afterEach(killAll);
afterAll(removeTempDirs);

describe('logs', () => {
  it(
    'are JSON lines, tagged with the trace id, and never contain a key, a token or a secret',
    async () => {
      const { cwd, secret: demo } = await demoFolder();
      const server = await startPaydesk({ cwd, env: { PAYDESK_ADMIN_TOKEN: ADMIN_TOKEN } });
      await server.ready();
      const unknownKey = `svc_secret_${randomBase62(40)}`;
      const wrongAdminToken = `wrong-admin-token-${randomBase62(16)}`;

      const me = await api(server, 'GET', '/v1/merchant/me', demo);
      expect(me.status).toBe(200);
      expect((await api(server, 'GET', '/v1/merchant/me', unknownKey)).status).toBe(401);
      expect((await api(server, 'GET', '/v1/merchant/me', `${demo}x`)).status).toBe(401);
      expect((await api(server, 'POST', '/v1/admin/accounts', wrongAdminToken, { name: 'x' })).status).toBe(
        401,
      );
      const account = await api(server, 'POST', '/v1/admin/accounts', ADMIN_TOKEN, { name: 'Logged shop' });
      const project = await api(server, 'POST', '/v1/admin/projects', ADMIN_TOKEN, {
        account_id: account.body.data.id,
        name: 'Logged shop',
      });
      const issued = await api(
        server,
        'POST',
        `/v1/admin/projects/${project.body.data.id}/api-keys`,
        ADMIN_TOKEN,
        {},
      );
      const secret: string = issued.body.data.secret;
      expect((await api(server, 'POST', '/v1/merchant/invoices', secret, { amount: '1.00' })).status).toBe(
        201,
      );
      expect((await api(server, 'POST', '/v1/merchant/invoices', secret, { amount: 1 })).status).toBe(422);
      expect((await api(server, 'GET', '/v1/nowhere', secret)).status).toBe(404);
      expect(await server.stop()).toEqual({ code: 0, signal: null });

      const logText = server.stdout();
      const lines = logText.split('\n').filter((l) => l !== '');
      const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const record of records) {
        expect(record).toMatchObject({
          level: expect.any(Number),
          time: expect.any(Number),
          msg: expect.any(String),
        });
      }
      const traceId = me.headers.get('x-trace-id');
      // One line per request (issue 33), tagged with its trace id.
      expect(records.filter((r) => r.trace_id === traceId)).toMatchObject([{ msg: 'request completed' }]);

      for (const leak of [demo, unknownKey, `${demo}x`, secret, ADMIN_TOKEN, wrongAdminToken]) {
        expect(server.stdout()).not.toContain(leak);
        expect(server.stderr()).not.toContain(leak);
      }
      // At most the redacted form (svc_secret_… plus the last 4 characters) may appear.
      expect(logText).not.toMatch(/svc_secret_[A-Za-z0-9]{5,}/);
    },
    SLOW,
  );
});
