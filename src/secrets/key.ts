import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The key that seals secrets at rest (seal.ts), and a short id of it that sealed values carry. */
export interface SecretKey {
  readonly id: string;
  readonly bytes: Buffer;
}

export const KEY_FILE = 'secret-key';

/**
 * The 256-bit AES key from the setting: HKDF-SHA256, so any long random string serves (the README says
 * `openssl rand -hex 32`). The id is a hash of the derived key: it tells which key sealed a value
 * without saying anything of it.
 */
export function secretKeyFrom(setting: string): SecretKey {
  const bytes = Buffer.from(hkdfSync('sha256', setting, 'paydesk', 'paydesk secret key v1', 32));
  return { id: createHash('sha256').update(bytes).digest('base64url').slice(0, 8), bytes };
}

export interface LoadedKey {
  key: SecretKey;
  /** Where it came from: PAYDESK_ENCRYPTION_KEY, or the file (made now when `created`). */
  source: 'environment' | 'file';
  file?: string;
  created: boolean;
}

/**
 * PAYDESK_ENCRYPTION_KEY when set. Else, on the embedded database only, `<state dir>/secret-key`, made
 * on the first start without one (owner-only, 0600, in a 0700 folder): one process, one folder, one
 * machine. On PostgreSQL a file is the wrong place: instances on other machines would each make a
 * key of their own and not open each other's secrets, and a container's disk may be read-only; so
 * there it is the variable or nothing (undefined: two-factor cannot be turned on, and says why).
 * A key that is lost makes the sealed secrets unreadable (users with two-factor then need
 * `npm run users -- reset <email> --remove-two-factor`), so the file is never replaced: `wx` makes it
 * only where there is none, even with two processes starting at once.
 */
export function loadSecretKey(config: {
  secretKey: string | undefined;
  stateDir: string;
  databaseUrl: string;
}): LoadedKey | undefined {
  if (config.secretKey) {
    return { key: secretKeyFrom(config.secretKey), source: 'environment', created: false };
  }
  if (!config.databaseUrl.startsWith('pglite://')) return undefined;
  const dir = path.resolve(config.stateDir);
  const file = path.join(dir, KEY_FILE);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let created = false;
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    chmodSync(file, 0o600); // the mode of a new file is masked by the umask
    created = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const setting = readFileSync(file, 'utf8').trim();
  if (setting.length < 32) throw new Error(`The secret key file ${file} holds fewer than 32 characters`);
  return { key: secretKeyFrom(setting), source: 'file', file, created };
}
