import { type Address, type Hex, keccak256, toBytes } from 'viem';

/** EIP-3009's signed message, as USDC (FiatToken v2.2) hashes it. */
export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** A token's EIP-712 domain as configured (`"eip3009": { "name", "version" }`) on its network. */
export interface Eip3009Domain {
  readonly name: string;
  readonly version: string;
}

export interface TransferAuthorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

/** The typed data a wallet signs (eth_signTypedData_v4) for one authorization. */
export function typedData(
  domain: Eip3009Domain,
  chainId: number,
  token: Address,
  message: TransferAuthorization,
) {
  return {
    domain: { name: domain.name, version: domain.version, chainId, verifyingContract: token },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization' as const,
    message,
  };
}

/**
 * The nonce that names an invoice: keccak256 of a fixed label and the invoice id. No secret is needed:
 * knowing it lets nobody move anyone's money (only the payer's signature does), and the money still
 * has to reach the invoice's payout address in the amount due to count (gasless/watch.ts). An
 * authorization per invoice: once used, its nonce is spent on the token for that payer for good.
 */
export function invoiceNonce(invoiceId: string): Hex {
  return keccak256(toBytes(`paydesk:eip3009:${invoiceId}`));
}
