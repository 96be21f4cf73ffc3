import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';

/** Uploads above this are refused before they are read to the end (the route's body limit). */
export const MAX_LOGO_BYTES = 512 * 1024;
/** Checked in the header before decoding: a small file may claim a huge image (a decompression bomb). */
export const MAX_LOGO_SIDE = 1024;

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export class LogoRefused extends Error {
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(message);
    this.name = 'LogoRefused';
  }
}

export interface Logo {
  /** The re-encoded PNG: the only bytes we store and serve. */
  png: Buffer;
  width: number;
  height: number;
  hash: string;
}

/**
 * Turns an upload into a logo we are willing to serve: a PNG by its bytes (not by its name or its
 * Content-Type), of sensible dimensions, decoded to pixels and encoded again. The re-encoding is the
 * security boundary: whatever rode along in the file (text chunks, a script appended after IEND, an
 * HTML or SVG document with a PNG name) does not survive it, and what we serve is pixels only.
 */
export function processLogo(upload: Buffer): Logo {
  if (
    upload.length < 33 ||
    !upload.subarray(0, 8).equals(SIGNATURE) ||
    upload.toString('latin1', 12, 16) !== 'IHDR'
  ) {
    throw new LogoRefused('not_png', 'The logo must be a PNG image (SVG, HTML and other files are refused)');
  }
  const width = upload.readUInt32BE(16);
  const height = upload.readUInt32BE(20);
  if (width < 1 || height < 1 || width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE) {
    throw new LogoRefused(
      'dimensions',
      `The logo must be at most ${MAX_LOGO_SIDE}×${MAX_LOGO_SIDE} pixels (this one is ${width}×${height})`,
    );
  }
  let decoded: PNG;
  try {
    decoded = PNG.sync.read(upload);
  } catch {
    throw new LogoRefused('not_png', 'The logo could not be decoded as a PNG image');
  }
  const clean = new PNG({ width: decoded.width, height: decoded.height });
  decoded.data.copy(clean.data);
  const png = PNG.sync.write(clean, { colorType: 6 });
  return {
    png,
    width: decoded.width,
    height: decoded.height,
    hash: createHash('sha256').update(png).digest('hex').slice(0, 32),
  };
}
