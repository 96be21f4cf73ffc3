import { sha256 } from '@noble/hashes/sha2.js';
import { base58 } from '@scure/base';

/**
 * Solana Pay transfer requests (contract §24; the spec: github.com/solana-foundation/solana-pay,
 * SPEC.md): `solana:<recipient>?amount=…&spl-token=<mint>&reference=<key>&label=…&message=…`.
 * The recipient is the merchant's wallet (the owner, never a token account: the wallet pays into the
 * owner's associated token account of the mint). The amount is in the token's own units as a decimal
 * string ("10.5", never "1e1"), with at most the mint's decimals. The wallet adds `reference` to the
 * transfer instruction as a read-only, non-signer account: that is how the transaction names its
 * invoice.
 */
export interface TransferRequest {
  recipient: string;
  /** The amount as a decimal string with at most the mint's decimals, as the spec asks. */
  amount: string;
  splToken: string;
  reference: string;
  /** The merchant's name, as the wallet shows it. */
  label?: string | undefined;
  /** What is paid for, as the wallet shows it. */
  message?: string | undefined;
}

export function transferRequestUrl(r: TransferRequest): string {
  const enc = encodeURIComponent;
  const parts = [`amount=${r.amount}`, `spl-token=${r.splToken}`, `reference=${r.reference}`];
  if (r.label) parts.push(`label=${enc(r.label)}`);
  if (r.message) parts.push(`message=${enc(r.message)}`);
  return `solana:${r.recipient}?${parts.join('&')}`;
}

/** "10.500000" → "10.5", "10.000000" → "10": the spec's decimal, trimmed of trailing zeros. */
export function trimDecimal(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

const REFERENCE_DOMAIN = 'paydesk solana-pay reference v1 ';

/**
 * An invoice's reference: 32 bytes from its id (a reference is any 32-byte key, on the curve or not;
 * wallets only copy it into the transaction). Derived, so it needs no randomness to keep, and stored
 * with the invoice (invoices.solana_reference) for the watcher's index. Nothing about it is secret: a
 * stranger who puts it in a transaction of their own pays the invoice with their own money.
 */
export function solanaReference(invoiceId: string): string {
  return base58.encode(sha256(new TextEncoder().encode(REFERENCE_DOMAIN + invoiceId)));
}
