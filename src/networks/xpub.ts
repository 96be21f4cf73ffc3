import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { HDKey } from '@scure/bip32';
import type { Family } from './family.js';

/** Messages never quote the input: a merchant who pastes the wrong thing may have pasted a secret. */
export class XpubError extends Error {}

const PRIVATE_KEY_WARNING =
  'Never give Paydesk a private key or recovery phrase: it only needs the account extended public key (xpub…).';
// BIP32 version bytes of testnet keys; mainnet (xpub/xprv) is @scure/bip32's default.
const TESTNET_VERSIONS = { public: 0x043587cf, private: 0x04358394 };
/** m/44'/<coin>'/0' is depth 3: the key wallets export for an account. */
export const ACCOUNT_DEPTH = 3;
const MAX_INDEX = 2 ** 31 - 1;
const Point = secp256k1.Point;

/**
 * Reads an account-level extended public key: `xpub…`, or `tpub…` as testnet tooling writes it (the
 * addresses are the same). Extended private keys, seeds and recovery phrases are refused with a
 * warning rather than used; ypub/zpub are refused because they are Bitcoin SegWit encodings.
 * `coinType` (60 Ethereum, 195 TRON) only words the messages: a key does not say which path it came from.
 */
export function parseXpub(text: string, coinType = 60): HDKey {
  const key = text.trim();
  if (looksSecret(key)) throw new XpubError(PRIVATE_KEY_WARNING);
  if (/^[yzYZuvUV]pub/.test(key)) {
    throw new XpubError(
      `ypub/zpub/upub/vpub keys are Bitcoin SegWit encodings; export the account xpub of m/44'/${coinType}'/0' instead.`,
    );
  }
  const versions = key.startsWith('tpub') ? TESTNET_VERSIONS : undefined;
  if (!key.startsWith('xpub') && !versions) {
    throw new XpubError('Not an extended public key: expected text starting with "xpub" (or "tpub").');
  }
  let hd: HDKey;
  try {
    hd = HDKey.fromExtendedKey(key, versions);
  } catch {
    throw new XpubError('The extended public key is damaged (bad length or checksum): copy it again.');
  }
  if (hd.privateKey) throw new XpubError(PRIVATE_KEY_WARNING);
  // Deriving 0/i from a key at another depth gives addresses the merchant's wallet never shows.
  if (hd.depth !== ACCOUNT_DEPTH) {
    throw new XpubError(
      `Expected the account-level key (depth 3, m/44'/${coinType}'/0'); this key is at depth ${hd.depth}.`,
    );
  }
  return hd;
}

function looksSecret(key: string): boolean {
  return (
    /^[xtyzuvYZUV]prv/.test(key) ||
    /^(0x)?[0-9a-fA-F]{64}$/.test(key) ||
    key.split(/\s+/).filter((w) => /^[a-z]+$/.test(w)).length >= 12
  );
}

interface ExternalChain {
  readonly publicKey: Uint8Array;
  readonly chainCode: Uint8Array;
  readonly point: ReturnType<typeof Point.fromBytes>;
}

// The external chain (…/0) is derived once per account key, so each address costs one child step.
const externalChains = new WeakMap<HDKey, ExternalChain>();

function externalChain(xpub: HDKey): ExternalChain {
  let chain = externalChains.get(xpub);
  if (!chain) {
    const node = xpub.deriveChild(0);
    if (!node.publicKey || !node.chainCode) throw new XpubError('The extended public key has no public key.');
    chain = { publicKey: node.publicKey, chainCode: node.chainCode, point: Point.fromBytes(node.publicKey) };
    externalChains.set(xpub, chain);
  }
  return chain;
}

/**
 * The deposit address at m/44'/<coin>'/0'/0/index, written as `family` writes addresses: the account's
 * external chain, the BIP44 path where MetaMask and Trezor put their accounts (Ledger Live does not:
 * docs/networks.md says what each wallet gives).
 */
export function deriveAddress(xpub: HDKey, index: number, family: Family): string {
  return family.address(deriveAccountId(xpub, index));
}

/** The 20-byte account id at 0/index under an account key: keccak-256 of the child public key, last 20 bytes. */
export function deriveAccountId(xpub: HDKey, index: number): Uint8Array {
  if (!Number.isInteger(index) || index < 0 || index > MAX_INDEX) {
    throw new RangeError(`address index must be an integer from 0 to ${MAX_INDEX}`);
  }
  const { publicKey, chainCode, point } = externalChain(xpub);
  // BIP32 CKDpub, written out rather than HDKey.deriveChild, which decompresses the parent and the
  // child again and multiplies in constant time: three times slower, and this runs per invoice.
  const data = new Uint8Array(37);
  data.set(publicKey);
  new DataView(data.buffer).setUint32(33, index);
  const tweak = Point.Fn.fromBytes(hmac(sha512, chainCode, data).subarray(0, 32), true);
  // Constant time buys nothing here: every input is public (the xpub and the index).
  const child = Point.Fn.isValid(tweak) ? point.add(Point.BASE.multiplyUnsafe(tweak)) : Point.ZERO;
  // BIP32 skips an index whose tweak is out of range or whose key is the point at infinity (odds
  // about 2^-127); we refuse it instead, so an index always means the address the wallet shows.
  if (child.equals(Point.ZERO)) throw new XpubError(`index ${index} has no valid key; use the next one`);
  // Over the 64-byte uncompressed point (no 0x04): the same account id on Ethereum and on TRON.
  return keccak_256(child.toBytes(false).subarray(1)).subarray(12);
}
