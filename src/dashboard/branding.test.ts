import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../../test/app.js';
import { type DashboardUser, inviteAndAccept, merchantWithOwner, signIn } from '../../test/dashboard.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A browser's multipart post of the logo form. */
async function uploadLogo(user: DashboardUser, file: Blob | null, csrf = user.csrf) {
  const form = new FormData();
  form.set('_csrf', csrf);
  if (file) form.set('logo', file, 'logo.png');
  const request = new Request('http://dashboard.test/', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url: '/dashboard/settings/logo',
    headers: {
      cookie: user.cookie,
      'content-type': request.headers.get('content-type') as string,
    },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

const png = (side: number) => PNG.sync.write(new PNG({ width: side, height: side }));
/** The project's branding as the admin API reports it. */
async function branding(projectId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/admin/projects/${projectId}/branding`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  return res.json().data as { brand_color: string | null; logo_url: string | null };
}

describe('payment page branding on the Settings page', () => {
  test('an owner sets a brand colour; one without contrast is refused with the rule and nothing changes', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'brand@shop.example');
    const saved = await owner.post('/dashboard/settings/branding', { brand_color: '#1e3a8a' });
    expect(saved.statusCode).toBe(303);
    expect((await branding(m.projectId)).brand_color).toBe('#1e3a8a');
    expect((await owner.get('/dashboard/settings')).body).toContain('value="#1e3a8a"');

    const pale = await owner.post('/dashboard/settings/branding', { brand_color: '#ffff00' });
    expect(pale.statusCode).toBe(422);
    expect(pale.body).toMatch(/contrast/i);
    expect((await branding(m.projectId)).brand_color).toBe('#1e3a8a');

    expect((await owner.post('/dashboard/settings/branding', { brand_color: '' })).statusCode).toBe(303);
    expect((await branding(m.projectId)).brand_color).toBeNull();
    expect((await owner.get('/dashboard/team')).body).toContain('project.branding_changed');
  });

  test('an owner uploads a PNG logo, which the payment page serves re-encoded, and removes it', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'logo@shop.example');
    const res = await uploadLogo(owner, new Blob([png(8)], { type: 'image/png' }));
    expect(res.statusCode).toBe(303);
    const url = (await branding(m.projectId)).logo_url as string;
    expect(url).toMatch(/\/pay\/logos\/[0-9a-f]{32}\.png$/);
    const served = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(served.headers['content-type']).toBe('image/png');
    expect((await owner.get('/dashboard/settings')).body).toContain(new URL(url).pathname);

    expect((await owner.post('/dashboard/settings/logo/remove', {})).statusCode).toBe(303);
    expect((await branding(m.projectId)).logo_url).toBeNull();
  });

  test('hostile files are refused with a message and store nothing', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'hostile-logo@shop.example');
    const cases: Array<[Blob | null, RegExp]> = [
      [
        new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], {
          type: 'image/svg+xml',
        }),
        /PNG/,
      ],
      [new Blob(['<!doctype html><script>alert(1)</script>'], { type: 'image/png' }), /PNG/],
      [new Blob([Buffer.alloc(20 * 1024 * 1024)], { type: 'image/png' }), /KiB/],
      [null, /Choose a PNG/],
    ];
    for (const [file, message] of cases) {
      const res = await uploadLogo(owner, file);
      expect(res.statusCode).toBe(422);
      expect(res.body).toMatch(message);
    }
    expect((await branding(m.projectId)).logo_url).toBeNull();
  });

  test('a viewer gets NOT_FOUND, and a post without the CSRF token changes nothing', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'brand-owner@shop.example');
    await inviteAndAccept(t.app, m.accountId, 'brand-viewer@shop.example', 'viewer');
    const viewer = await signIn(t.app, 'brand-viewer@shop.example');
    expect((await viewer.post('/dashboard/settings/branding', { brand_color: '#1e3a8a' })).statusCode).toBe(
      404,
    );
    expect((await uploadLogo(viewer, new Blob([png(4)], { type: 'image/png' }))).statusCode).toBe(404);
    expect((await uploadLogo(owner, new Blob([png(4)], { type: 'image/png' }), 'forged')).statusCode).toBe(
      422,
    );
    const b = await branding(m.projectId);
    expect(b.brand_color).toBeNull();
    expect(b.logo_url).toBeNull();
  });
});
