import { crc32 } from 'node:zlib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN_TOKEN,
  createInvoice,
  createMerchant,
  type Merchant,
  startTestApp,
  type TestApp,
} from '../../test/app.js';

let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp();
  m = await createMerchant(t.app);
});
afterAll(() => t.close());

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** A PNG; `comment` rides along in a tEXt chunk before IEND, as a tool could hide anything there. */
function png(width: number, height: number, comment?: string): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < image.data.length; i += 4) image.data.set([0x63, 0x5b, 0xff, 0xff], i);
  const bytes = PNG.sync.write(image);
  if (comment === undefined) return bytes;
  const data = Buffer.from(`Comment\0${comment}`, 'latin1');
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  const iend = bytes.length - 12;
  return Buffer.concat([bytes.subarray(0, iend), chunk, bytes.subarray(iend)]);
}

const upload = (body: Buffer | string, contentType = 'image/png', project = m.projectId) =>
  t.app.inject({
    method: 'PUT',
    url: `/v1/admin/projects/${project}/logo`,
    headers: { ...auth, 'content-type': contentType },
    payload: body,
  });

const setColor = (brand_color: string | null) =>
  t.app.inject({
    method: 'PATCH',
    url: `/v1/admin/projects/${m.projectId}/branding`,
    headers: auth,
    payload: { brand_color },
  });

function refusedWith(res: { statusCode: number; json(): any; body: string }, rule: string) {
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json().error).toMatchObject({
    code: 'VALIDATION_ERROR',
    details: { errors: [{ in: 'body', rule }] },
  });
}

describe('brand colour through the admin API', () => {
  test('sets a colour with enough contrast; the page loads it as its own stylesheet', async () => {
    const res = await setColor('#635BFF');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      brand_color: '#635bff',
      brand_text_color: '#ffffff',
      logo_url: null,
    });
    const inv = (await createInvoice(t.app, m)).json().data;
    const page = await t.app.inject({ url: `/pay/${inv.id}` });
    expect(page.body).toContain('<link rel="stylesheet" href="assets/brand-635bff.css">');
    const css = await t.app.inject({ url: '/pay/assets/brand-635bff.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(css.body).toContain(':root{--brand:#635bff;--on-brand:#ffffff}');
  });

  test('refuses a colour without contrast, with the ratio in the message; no stylesheet exists for it', async () => {
    const res = await setColor('#ffd700');
    refusedWith(res, 'contrast');
    expect(res.json().error.details.errors[0]).toMatchObject({ field: 'brand_color' });
    expect(res.json().error.details.errors[0].message).toMatch(/1\.40:1/);
    refusedWith(await setColor('gold'), 'pattern');
    expect((await t.app.inject({ url: '/pay/assets/brand-ffd700.css' })).statusCode).toBe(404);
    expect((await setColor(null)).json().data.brand_color).toBeNull();
  });

  test('an unknown project is NOT_FOUND; without the admin token, 401', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/v1/admin/projects/prj_unknown00000000000000000/branding',
      headers: auth,
      payload: { brand_color: '#635bff' },
    });
    expect(res.statusCode).toBe(404);
    expect((await upload(png(8, 8), 'image/png', 'prj_unknown00000000000000000')).statusCode).toBe(404);
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/projects/${m.projectId}/logo`,
      payload: png(8, 8),
      headers: { 'content-type': 'image/png' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('logo upload', () => {
  test('a PNG is re-encoded, stored and served from our origin under its hash', async () => {
    // A text chunk would survive a copy; re-encoding keeps the pixels only.
    const hostile = png(64, 32, '<script>alert(1)</script>');
    expect(PNG.sync.read(hostile).width).toBe(64); // a valid PNG, script and all
    const res = await upload(hostile);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ logo_width: 64, logo_height: 32 });
    expect(data.logo_url).toMatch(/^http:\/\/paydesk\.test\/pay\/logos\/[0-9a-f]{32}\.png$/);
    const served = await t.app.inject({ url: new URL(data.logo_url).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.includes('<script>')).toBe(false);
    const decoded = PNG.sync.read(served.rawPayload);
    expect([decoded.width, decoded.height]).toEqual([64, 32]);
    const inv = (await createInvoice(t.app, m)).json().data;
    const page = await t.app.inject({ url: `/pay/${inv.id}` });
    expect(page.body).toContain(
      `<img class="logo" src="${new URL(data.logo_url).pathname.slice('/pay/'.length)}" alt="" width="64" height="32">`,
    );
  });

  test.each([
    [
      'an SVG with a script, sent as SVG',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'image/svg+xml',
      'content_type',
    ],
    [
      'an SVG with a script, sent as PNG',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'image/png',
      'not_png',
    ],
    [
      'a "PNG" that is really HTML',
      '<!doctype html><script>alert(document.cookie)</script>',
      'image/png',
      'not_png',
    ],
    [
      'a JPEG',
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]),
      'image/jpeg',
      'content_type',
    ],
    ['JSON', '{"logo":"https://evil.example/x.png"}', 'application/json', 'content_type'],
  ])('refuses %s', async (_name, body, type, rule) => {
    refusedWith(await upload(body as string | Buffer, type), rule);
  });

  test('refuses a 20 MB upload without reading it all, and a PNG header claiming a huge image', async () => {
    const huge = Buffer.concat([png(8, 8), Buffer.alloc(20 * 1024 * 1024)]);
    const res = await upload(huge);
    refusedWith(res, 'too_large');
    expect(res.json().error.details.errors[0].message).toBe('The logo is larger than 512 KiB');
    const bomb = png(8, 8);
    bomb.writeUInt32BE(50_000, 16); // IHDR width: decoding would allocate gigabytes
    refusedWith(await upload(bomb), 'dimensions');
    const truncated = png(8, 8).subarray(0, 40);
    refusedWith(await upload(truncated), 'not_png');
  });

  test('the old logo URL stops working once replaced or removed; unknown names are 404', async () => {
    const first = (await upload(png(10, 10))).json().data.logo_url;
    const second = (await upload(png(12, 12))).json().data.logo_url;
    expect(second).not.toBe(first);
    expect((await t.app.inject({ url: new URL(first).pathname })).statusCode).toBe(404);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/projects/${m.projectId}/logo`,
      headers: auth,
    });
    expect(removed.json().data.logo_url).toBeNull();
    expect((await t.app.inject({ url: new URL(second).pathname })).statusCode).toBe(404);
    for (const name of ['x.png', '../pay.css', `${'a'.repeat(32)}.svg`]) {
      expect((await t.app.inject({ url: `/pay/logos/${encodeURIComponent(name)}` })).statusCode).toBe(404);
    }
  });
});
