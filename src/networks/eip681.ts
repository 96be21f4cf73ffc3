import { type Address, isAddress } from './evm-address.js';

export interface TokenTransfer {
  token: Address;
  chainId: number;
  to: Address;
  /** In the token's own units (see units.ts), not Paydesk's 10^-18 units. */
  units: bigint;
}

/**
 * An EIP-681 payment request for an ERC-20 transfer, the text of the payment page's QR code:
 * `ethereum:<token>@<chainId>/transfer?address=<to>&uint256=<units>`. The amount is written in plain
 * digits: EIP-681 also allows `2.014e18`, but several wallets misread the exponent form.
 */
export function tokenTransferUri({ token, chainId, to, units }: TokenTransfer): string {
  if (!isAddress(token)) throw new RangeError('token is not a valid address');
  if (!isAddress(to)) throw new RangeError('recipient is not a valid address');
  if (!Number.isSafeInteger(chainId) || chainId < 1)
    throw new RangeError('chainId must be a positive integer');
  if (units < 0n) throw new RangeError('units must not be negative');
  return `ethereum:${token}@${chainId}/transfer?address=${to}&uint256=${units.toString(10)}`;
}
