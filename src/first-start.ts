import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const FIRST_START_FILE = 'first-start.txt';

/**
 * What the first start prints once (the demo key, the owner's one-time link) also goes to a file that
 * only the owner can read (0600): printed, it scrolls away under the request log in a minute. A new
 * embedded database replaces an older file, whose key and link belonged to the database before.
 */
export function writeFirstStart(stateDir: string, banners: string, now: Date): string {
  const dir = path.resolve(stateDir);
  const file = path.join(dir, FIRST_START_FILE);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const text = [
    `Paydesk's first start on this database, ${now.toISOString()}.`,
    'Keep this file private, and delete it once the key is stored elsewhere and the link is used.',
    banners,
  ].join('\n');
  writeFileSync(file, text, { mode: 0o600 });
  // The mode given above applies to a new file only, and through the umask: set it either way.
  chmodSync(file, 0o600);
  return file;
}
