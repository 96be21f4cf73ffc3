import { formatMoney, formatUnits, type Money, toTokenUnits } from '../money/money.js';
import { tokenTransferUri } from './eip681.js';
import type { Address } from './evm-address.js';
import { type Currency, type NetworkRegistry, SANDBOX } from './network.js';
import { transferRequestUrl, trimDecimal } from './solana-pay.js';

/** What a wallet needs to pay an invoice: everything the QR code carries. */
export interface PaymentTarget {
  network: string;
  currency: string;
  pay_address: string;
  /** The amount still due. */
  amount: Money;
  /** Solana (contract §24): the invoice's Solana Pay reference, and what the wallet shows. */
  solana?: { reference: string; label?: string | undefined; message?: string | undefined } | undefined;
}

/**
 * The text of the payment QR code: the one switch point per network. A wallet that scans it should
 * be able to pay without typing anything.
 * - `sandbox`: `sandbox:{pay_address}?amount={amount}&currency={currency}`, a URI of our own (no real
 *   wallet pays sandbox invoices; it shows what the page would hand one).
 * - an EVM network of the registry: an EIP-681 token transfer,
 *   `ethereum:<token>@<chainId>/transfer?address=<pay_address>&uint256=<amount in token units>`, which
 *   MetaMask, Trust, Rainbow and Coinbase Wallet open with token, network, recipient and amount filled in.
 * - a TRON network: the bare `T…` address (contract §14). TRON has no payment-URI standard that its
 *   wallets share (every TRON wallet reads a bare address), so the page states the
 *   amount and token in words instead (see carriesAmount).
 * - a Solana network: a Solana Pay transfer request (solana-pay.ts) with the invoice's reference,
 *   which Phantom, Solflare and Backpack open with token, recipient and amount filled in.
 * - anything else: the bare address, which every wallet reads.
 */
export function paymentRequest(target: PaymentTarget, networks: NetworkRegistry): string {
  if (target.network === SANDBOX) {
    const query = new URLSearchParams({ amount: formatMoney(target.amount), currency: target.currency });
    return `sandbox:${target.pay_address}?${query}`;
  }
  const chain = networks.get(target.network);
  const token = networks.token(target.network, target.currency as Currency);
  if (chain?.family === 'solana' && token && target.solana) {
    return transferRequestUrl({
      recipient: target.pay_address,
      // Rounded up to the mint's decimals, as on EVM: never less than is due.
      amount: trimDecimal(formatUnits(target.amount, token.decimals)),
      splToken: token.address,
      reference: target.solana.reference,
      label: target.solana.label,
      message: target.solana.message,
    });
  }
  if (!chain || !token || chain.family !== 'evm') return target.pay_address;
  return tokenTransferUri({
    token: token.address as Address,
    chainId: chain.chainId,
    to: target.pay_address as Address,
    // Rounded up: a wallet must never be asked for less than is due.
    units: toTokenUnits(target.amount, token.decimals),
  });
}

/** Whether the payment request fills in the amount and token, or the payer must type them (the bare address). */
export function carriesAmount(network: string, networks: NetworkRegistry): boolean {
  const family = networks.get(network)?.family;
  return network === SANDBOX || family === 'evm' || family === 'solana';
}

/**
 * The "Open in wallet" link: a URI a wallet on the same phone registers for. EVM networks: the same
 * EIP-681 transfer as the QR code (amount and token filled in). TRON: `tron:<address>`, a plain
 * address URI for wallets that register the scheme (TRON has no shared payment-URI standard, so the
 * amount is typed by hand, as the page says, and Copy is beside it for wallets that do not). Sandbox: its own URI, which no wallet opens (it shows what the page
 * would hand one). Undefined where no wallet URI scheme is known: the page then offers none.
 */
export function walletLink(target: PaymentTarget, networks: NetworkRegistry): string | undefined {
  if (target.network === SANDBOX) return paymentRequest(target, networks);
  const family = networks.get(target.network)?.family;
  // The transfer request is the wallet link too: Solana wallets register the `solana:` scheme.
  if (family === 'evm' || family === 'solana') return paymentRequest(target, networks);
  if (family === 'tron') return `tron:${target.pay_address}`;
  return undefined;
}
