import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import { inviteAndAccept, merchantWithOwner, signIn } from '../../test/dashboard.js';
import { freshDatabase, onPostgres } from '../../test/database.js';
import { randomBase62 } from '../ids.js';

/** Two instances on one PostgreSQL: a session ended on one is over on the other at its next request. */
describe.skipIf(!onPostgres)('dashboard sessions across instances', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    database = await freshDatabase();
    const shared = { databaseUrl: database.url, redisPrefix: `paydesk:test:${randomBase62(8)}:` };
    a = await startTestApp(shared);
    b = await startTestApp(shared);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  test('sign-out, removal and a password change on one instance end the sessions on the other', async () => {
    const { m, owner } = await merchantWithOwner(a.app, 'multi@shop.example');
    const cookieGet = (app: TestApp, cookie: string) =>
      app.app.inject({ url: '/dashboard', headers: { cookie } });
    expect((await cookieGet(b, owner.cookie)).statusCode).toBe(200);
    await owner.post('/dashboard/sign-out');
    expect((await cookieGet(b, owner.cookie)).statusCode).toBe(303);

    const { userId } = await inviteAndAccept(a.app, m.accountId, 'multi-viewer@shop.example', 'viewer');
    const viewer = await signIn(b.app, 'multi-viewer@shop.example');
    expect((await cookieGet(b, viewer.cookie)).statusCode).toBe(200);
    const again = await signIn(a.app, 'multi@shop.example');
    expect((await again.post(`/dashboard/team/${userId}/remove`)).statusCode).toBe(303);
    expect((await cookieGet(b, viewer.cookie)).statusCode).toBe(303);

    const elsewhere = await signIn(b.app, 'multi@shop.example');
    const changed = await again.post('/dashboard/account/password', {
      current_password: 'correct horse battery staple',
      new_password: 'another long passphrase',
    });
    expect(changed.statusCode).toBe(303);
    expect((await cookieGet(b, elsewhere.cookie)).statusCode).toBe(303);
    expect((await cookieGet(a, again.cookie)).statusCode).toBe(200);
  });
});
