import { isIP } from 'node:net';

/**
 * Which proxies may name the client in `X-Forwarded-For` (contract §21): nobody (`false`), the
 * nearest `n` hops, or the proxies at these addresses and CIDR ranges. Fastify's `trustProxy` takes
 * each form as is, and `request.ip` is then the client for every rate limit, lockout and log line.
 */
export type TrustProxy = false | number | readonly string[];

export class TrustProxyError extends Error {}

/** More hops than any real chain of proxies: a larger number is a typo, not a topology. */
export const MAX_HOPS = 32;

const HOPS = /^[0-9]{1,3}$/;

/** PAYDESK_TRUST_PROXY, read once at start-up: unset trusts nobody, a bad value is a config error. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '') return false;
  if (HOPS.test(text)) {
    const hops = Number(text);
    if (hops > MAX_HOPS) throw new TrustProxyError(`a number of hops must be 0 to ${MAX_HOPS}`);
    // Zero hops: the socket's own address, as when unset.
    return hops === 0 ? false : hops;
  }
  if (text === 'true') {
    // Trusting every hop lets any client write its own address into the header: never by a word.
    throw new TrustProxyError(
      '"true" would let any client choose its own address; give the number of proxies in front of Paydesk or their addresses',
    );
  }
  const entries = text.split(',').map((e) => e.trim());
  const bad = entries.find((e) => !isAddressOrRange(e));
  if (bad !== undefined) {
    throw new TrustProxyError(
      `${JSON.stringify(bad.slice(0, 50))} is not an IP address or CIDR range; use a number of hops or a comma list such as 127.0.0.1,10.0.0.0/8`,
    );
  }
  return Object.freeze(entries);
}

/** "203.0.113.7", "2001:db8::1", "10.0.0.0/8", "2001:db8::/32". */
export function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  // A zone ("fe80::1%eth0") names an interface, not an address a proxy's packets come from.
  if (family === 0 || rest.length > 0 || address.includes('%')) return false;
  if (prefix === undefined) return true;
  if (!/^[0-9]{1,3}$/.test(prefix)) return false;
  // "/0" is every address: as "true", any client could then choose its own (Fastify refuses it too).
  return Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * The form Fastify's `trustProxy` option takes. Hops become the function Fastify makes of a number
 * itself (its types leave the number out): the nearest `hops` addresses are proxies.
 */
export function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return typeof trust === 'object' ? [...trust] : trust;
}
