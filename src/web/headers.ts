import type { FastifyReply } from 'fastify';

/**
 * Nothing inline, nothing from elsewhere, for every page for people (the payment page, the dashboard):
 * scripts and stylesheets come from our own /assets routes, QR codes are inline SVG markup (not subject
 * to img-src), the favicon is a data: URL, and the only requests a script makes go back to us. No
 * framing (clickjacking on the payment page's simulate button or any dashboard form).
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

/** On every /pay and /dashboard response, pages, JSON and assets alike. */
export function setSecurityHeaders(reply: FastifyReply): void {
  reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'no-referrer');
  reply.header('X-Frame-Options', 'DENY');
  reply.header('Cross-Origin-Opener-Policy', 'same-origin');
}

/** Pages and status change at any moment and belong to one payer or user: never stored by any cache. */
export function noStore(reply: FastifyReply): void {
  reply.header('Cache-Control', 'no-store');
}
