import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { matchesIfNoneMatch } from './etag.js';

export interface Asset {
  /** The file name with its content hash (`pay.3f9a1c2b7d.css`): a new URL whenever the content changes. */
  name: string;
  body: Buffer;
  type: string;
  etag: string;
}

/** A surface's stylesheet and script, and both by their hashed names (for its /assets route). */
export interface AssetSet {
  css: Asset;
  js: Asset;
  byName: Map<string, Asset>;
}

// Read from the source tree both under tsx and from dist (dist/web/ is as deep as src/web/), as the
// migrations are: tsc does not copy non-TypeScript files.
const BASE_CSS = new URL('../../src/web/assets/base.css', import.meta.url);

/** An asset named after its content: `file` with the first 12 hex digits of its SHA-256 before the extension. */
export function hashedAsset(file: string, body: Buffer, type: string): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const dot = file.lastIndexOf('.');
  return { name: `${file.slice(0, dot)}.${hash}${file.slice(dot)}`, body, type, etag: `"${hash}"` };
}

/**
 * A surface's stylesheet and script, read once. The stylesheet is served as one file: the shared
 * base (design tokens, light and dark, and the reset: src/web/assets/base.css) followed by the
 * surface's own rules, so the payment page and the dashboard share one source of tokens.
 */
export function loadAssets(stylesheet: URL, script: URL): AssetSet {
  const css = hashedAsset(
    basename(fileURLToPath(stylesheet)),
    Buffer.from(`${readFileSync(BASE_CSS, 'utf8')}\n${readFileSync(stylesheet, 'utf8')}`),
    'text/css; charset=utf-8',
  );
  const js = hashedAsset(
    basename(fileURLToPath(script)),
    readFileSync(script),
    'text/javascript; charset=utf-8',
  );
  return { css, js, byName: new Map([css, js].map((a) => [a.name, a])) };
}

/**
 * Sends a file whose URL names its content (a hash in the name): cached for good, and a 304 to a
 * client that already holds this version.
 */
export function sendImmutable(
  request: FastifyRequest,
  reply: FastifyReply,
  file: Pick<Asset, 'body' | 'type' | 'etag'>,
) {
  reply.header('Cache-Control', 'public, max-age=31536000, immutable').header('ETag', file.etag);
  if (matchesIfNoneMatch(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
  return reply.type(file.type).send(file.body);
}
