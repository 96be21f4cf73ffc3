import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * The server-side request forgery guard (contract §10). A webhook URL is the merchant's input, and
 * the worker POSTs to it from inside our network: without this, `https://169.254.169.254/` or a name
 * resolving to 10.0.0.5 would let a merchant reach the cloud metadata service or internal hosts.
 */

// IANA's special-purpose registries, minus nothing: none of these is a public webhook receiver.
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, where cloud metadata services live
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible addresses
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address we would otherwise have to check
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/**
 * Never a merchant's receiver, whatever PAYDESK_WEBHOOK_ALLOW_PRIVATE says: link-local addresses,
 * where cloud metadata services answer (169.254.169.254 on AWS, GCP and Azure), and the metadata
 * addresses that live elsewhere (Alibaba's 100.100.100.200, AWS's IPv6 fd00:ec2::254).
 */
const NEVER = new BlockList();
NEVER.addSubnet('169.254.0.0', 16, 'ipv4');
NEVER.addAddress('100.100.100.200', 'ipv4');
NEVER.addSubnet('fe80::', 10, 'ipv6');
NEVER.addAddress('fd00:ec2::254', 'ipv6');
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

function isNeverAllowed(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  if (family === 4) return NEVER.check(ip, 'ipv4');
  const words = ipv6Words(ip);
  // NAT64 (64:ff9b::/96) carries an IPv4 address in its last 32 bits.
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0)) {
    const [h, l] = [words[6] ?? 0, words[7] ?? 0];
    return isNeverAllowed([h >> 8, h & 255, l >> 8, l & 255].join('.'));
  }
  return NEVER.check(ip, 'ipv6');
}

/** True when `ip` (a literal) is an ordinary public unicast address. IPv4-mapped IPv6 counts as its IPv4. */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  if (family === 4) return !NON_PUBLIC.check(ip, 'ipv4');
  // BlockList matches ::ffff:a.b.c.d against the IPv4 rules itself; NAT64 (64:ff9b::/96) we unwrap.
  const words = ipv6Words(ip);
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0)) {
    const [h, l] = [words[6] ?? 0, words[7] ?? 0];
    return isPublicAddress([h >> 8, h & 255, l >> 8, l & 255].join('.'));
  }
  return !NON_PUBLIC.check(ip, 'ipv6');
}

/** The eight 16-bit words of a valid IPv6 literal (`::` expanded, a dotted IPv4 tail split in two). */
function ipv6Words(ip: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  let text = ip;
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${ip.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((w) => Number.parseInt(w, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
}

export class UrlRefused extends Error {
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(message);
    this.name = 'UrlRefused';
  }
}

export interface Target {
  url: URL;
  /** The address the connection must use: the one that was checked (no second DNS answer). */
  address: string;
  family: 4 | 6;
}

/** The checks that need no DNS: scheme and shape. Throws UrlRefused. */
export function parseWebhookUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused('format', 'url must be an absolute URL such as https://example.com/webhooks');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowPrivate)) {
    throw new UrlRefused('https_required', 'url must start with https://');
  }
  // Credentials in the URL would be shown back in every listing and log; use the signing secret instead.
  if (url.username || url.password) {
    throw new UrlRefused('credentials', 'url must not contain a user name or password');
  }
  return url;
}

/**
 * Resolves the URL's host and decides whether we may connect to it. Every address the name resolves
 * to must pass, so a name that answers with a public and a private address cannot be used to pick
 * the private one. Run at registration and again before every attempt: DNS answers change.
 */
export async function resolveTarget(raw: string, allowPrivate: boolean): Promise<Target> {
  const url = parseWebhookUrl(raw, allowPrivate);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (METADATA_HOSTS.has(host.toLowerCase().replace(/\.$/, ''))) throw linkLocal();
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await lookup(host, { all: true, verbatim: true }).catch(() => {
        throw new UrlRefused('unresolvable', `The host ${host} of url could not be resolved`);
      });
  const first = addresses[0];
  if (!first) throw new UrlRefused('unresolvable', `The host ${host} of url has no address`);
  if (addresses.some((a) => isNeverAllowed(a.address))) throw linkLocal();
  const allPublic = addresses.every((a) => isPublicAddress(a.address));
  if (!allowPrivate && !allPublic) {
    throw new UrlRefused(
      'private_address',
      'url must point to a public address, not a private or loopback one',
    );
  }
  // With private addresses allowed (local development), plain http is still only for those.
  if (url.protocol === 'http:' && addresses.some((a) => isPublicAddress(a.address))) {
    throw new UrlRefused(
      'https_required',
      'url must start with https:// unless it points to a private address',
    );
  }
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

function linkLocal(): UrlRefused {
  return new UrlRefused(
    'link_local_address',
    'url must not point to a link-local or cloud metadata address; these are refused even in development',
  );
}
