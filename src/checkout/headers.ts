import type { FastifyReply } from 'fastify';

/**
 * Nothing inline, nothing from elsewhere: the page's script and stylesheet come from our own
 * /pay/assets, the QR code is inline SVG markup (not subject to img-src), the favicon is a data: URL,
 * and the only requests the script makes go back to us. No framing (clickjacking on the simulate button).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** On every /pay response, pages, JSON and assets alike. */
export function setSecurityHeaders(reply: FastifyReply): void {
  reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'no-referrer');
  reply.header('X-Frame-Options', 'DENY');
  reply.header('Cross-Origin-Opener-Policy', 'same-origin');
}

/** Pages and status change at any moment and belong to one payer: never stored by any cache. */
export function noStore(reply: FastifyReply): void {
  reply.header('Cache-Control', 'no-store');
}
