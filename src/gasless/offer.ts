import { type Address, getAddress, type Hex } from 'viem';
import type { OfferedMethod } from '../invoices/invoice.table.js';
import { outstanding } from '../invoices/invoice-state.js';
import type { InvoiceState } from '../invoices/lifecycle.js';
import { toTokenUnits } from '../money/money.js';
import { isTestChain, mayPay } from '../networks/livemode.js';
import type { Currency, NetworkRegistry } from '../networks/network.js';
import { type Eip3009Domain, invoiceNonce } from './typed-data.js';

/** One way to pay an invoice with a signed transfer (contract §23): what the payer's wallet signs. */
export interface GaslessOffer {
  network: string;
  label: string;
  chainId: number;
  currency: Currency;
  token: Address;
  decimals: number;
  domain: Eip3009Domain;
  /** The project's payout address: the money goes straight there. */
  payTo: Address;
  /** Exactly what is still due, in the token's atomic units. */
  units: bigint;
  /** The nonce that names the invoice (typed-data.ts). */
  nonce: Hex;
  /** The invoice's expiry, in seconds: no authorization may outlive it. */
  validBefore: bigint;
}

export interface OfferInvoice {
  id: string;
  livemode: boolean;
  payout_address: string | null;
  payment_methods: readonly OfferedMethod[];
  payment_expires_at: Date;
}

/**
 * The gasless methods of an invoice at `now`: its methods whose token takes EIP-3009 on a watched EVM
 * network where a relayer key is set, while the invoice is open, something is due and its project
 * collects to a payout address (the only recipient a signed transfer may name). Whether the relayer
 * still has gas is the caller's question (a chain read): a page asks it before showing the button.
 */
export function gaslessOffers(
  networks: NetworkRegistry,
  relayerKey: (network: string) => string | undefined,
  invoice: OfferInvoice,
  state: InvoiceState,
  now: Date,
): GaslessOffer[] {
  const due = outstanding(state);
  if (state.status !== 'pending' || due <= 0n || invoice.payout_address === null) return [];
  if (now.getTime() >= invoice.payment_expires_at.getTime()) return [];
  const payTo = getAddress(invoice.payout_address);
  const offers: GaslessOffer[] = [];
  for (const method of invoice.payment_methods) {
    const network = networks.get(method.network);
    const token = networks.token(method.network, method.currency as Currency);
    if (!network || !token?.eip3009 || network.family !== 'evm' || network.rpcUrl === undefined) continue;
    if (!mayPay({ test: isTestChain(network) }, invoice) || relayerKey(network.name) === undefined) continue;
    offers.push({
      network: network.name,
      label: network.label,
      chainId: network.chainId,
      currency: method.currency as Currency,
      token: getAddress(token.address),
      decimals: token.decimals,
      domain: token.eip3009,
      payTo,
      units: toTokenUnits(due, token.decimals),
      nonce: invoiceNonce(invoice.id),
      validBefore: BigInt(Math.floor(invoice.payment_expires_at.getTime() / 1000)),
    });
  }
  return offers;
}
