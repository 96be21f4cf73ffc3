import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The link page's form token: `<bucket>.<HMAC-SHA256(link's form_secret, "<link id>.<bucket>")>`, the
 * bucket being the half hour the page was made in. Nothing is stored per view: any instance checks a
 * token with the link's own secret. A token from the current or the previous half hour is good (a
 * page left open 30 to 60 minutes), an older or forged one is not. It proves the POST comes from a
 * page Paydesk rendered lately, so a crawler, a prefetch or another site's form cannot make an
 * invoice by itself (docs/links.md).
 */
export const TOKEN_BUCKET_MS = 30 * 60_000;

const mac = (secret: Buffer, linkId: string, bucket: number) =>
  createHmac('sha256', secret).update(`${linkId}.${bucket}`).digest('base64url');

export function formToken(secret: Buffer, linkId: string, now: Date): string {
  const bucket = Math.floor(now.getTime() / TOKEN_BUCKET_MS);
  return `${bucket}.${mac(secret, linkId, bucket)}`;
}

export function isFormTokenValid(secret: Buffer, linkId: string, token: unknown, now: Date): boolean {
  if (typeof token !== 'string' || token.length > 100) return false;
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return false;
  const bucket = Number(match[1]);
  const current = Math.floor(now.getTime() / TOKEN_BUCKET_MS);
  if (bucket !== current && bucket !== current - 1) return false;
  const expected = Buffer.from(mac(secret, linkId, bucket));
  const given = Buffer.from(match[2] as string);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
