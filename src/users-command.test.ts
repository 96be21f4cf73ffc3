import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createMerchant, startTestApp } from '../test/app.js';
import { FORM, formBody, inviteAndAccept, signIn } from '../test/dashboard.js';
import { freshDatabase, onPostgres } from '../test/database.js';
import { demoFolder, removeTempDirs, SLOW } from '../test/process.js';
import { linkPath, usersCommand } from '../test/users-command.js';

afterAll(removeTempDirs);

const NEW_PASSWORD = 'a new passphrase after a reset';

const setPassword = (app: FastifyInstance, path: string, password = NEW_PASSWORD) =>
  app.inject({ method: 'POST', url: path, payload: formBody({ password }), headers: FORM });

/** A dashboard user with a password and a live session, on the app's database. */
async function userWithSession(app: FastifyInstance, email: string) {
  const m = await createMerchant(app);
  await inviteAndAccept(app, m.accountId, email);
  return signIn(app, email);
}

describe('npm run users -- reset <email>', () => {
  it(
    'embedded database: refused with what to do while the server holds it; once stopped, prints a link, ends the sessions and the old password',
    async () => {
      const { cwd } = await demoFolder();
      const env = { DATABASE_URL: `pglite://${cwd}/.paydesk/db`, PUBLIC_BASE_URL: 'http://paydesk.test' };
      const server = await startTestApp({ databaseUrl: env.DATABASE_URL });
      const session = await userWithSession(server.app, 'lost@shop.example');

      // The operator's own command once; the other runs take the same source from the run's build.
      const busy = await usersCommand(['reset', 'lost@shop.example'], env, true);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`in use by the running Paydesk (pid ${process.pid})`);
      expect(busy.stderr).toContain('Stop the server, run this command again');
      expect(busy.stdout).not.toContain('/dashboard/invite/');
      await server.close();

      const first = await usersCommand(['reset', 'Lost@Shop.example'], env);
      expect(first.code).toBe(0);
      expect(first.stdout).toContain('1 session ended');
      const second = await usersCommand(['reset', 'lost@shop.example'], env, true);
      expect(second.code).toBe(0);
      const unknown = await usersCommand(['reset', 'nobody@shop.example'], env, true);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('No dashboard user has the email "nobody@shop.example"');

      const again = await startTestApp({ databaseUrl: env.DATABASE_URL });
      try {
        const old = await again.app.inject({ url: '/dashboard', headers: { cookie: session.cookie } });
        expect(old.headers.location).toBe('/dashboard/sign-in');
        await expect(signIn(again.app, 'lost@shop.example')).rejects.toThrow(/401/);
        // Only the newest link works.
        expect((await setPassword(again.app, linkPath(first.stdout))).statusCode).toBe(404);
        expect((await setPassword(again.app, linkPath(second.stdout))).statusCode).toBe(303);
        expect((await setPassword(again.app, linkPath(second.stdout))).statusCode).toBe(404);
        const back = await signIn(again.app, 'lost@shop.example', NEW_PASSWORD);
        expect((await back.get('/dashboard')).statusCode).toBe(200);
      } finally {
        await again.close();
      }
    },
    SLOW,
  );

  it.skipIf(!onPostgres)(
    'PostgreSQL: works while the server runs; the session ends on the next request',
    async () => {
      const fresh = await freshDatabase();
      const server = await startTestApp({ databaseUrl: fresh.url });
      try {
        const session = await userWithSession(server.app, 'pg-lost@shop.example');
        expect((await session.get('/dashboard')).statusCode).toBe(200);
        const env = { DATABASE_URL: fresh.url, PUBLIC_BASE_URL: 'http://paydesk.test' };
        const reset = await usersCommand(['reset', 'pg-lost@shop.example'], env);
        expect(reset.code).toBe(0);
        expect(reset.stdout).toContain('1 session ended');
        expect((await session.get('/dashboard')).headers.location).toBe('/dashboard/sign-in');
        expect((await setPassword(server.app, linkPath(reset.stdout))).statusCode).toBe(303);
        const back = await signIn(server.app, 'pg-lost@shop.example', NEW_PASSWORD);
        expect((await back.get('/dashboard')).statusCode).toBe(200);
      } finally {
        await server.close();
        await fresh.drop();
      }
    },
    SLOW,
  );
});
