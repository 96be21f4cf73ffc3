import { type Address, getAddress, type Hex, recoverTypedDataAddress } from 'viem';
import type { FieldError } from '../http/errors.js';
import type { GaslessOffer } from './offer.js';
import { type TransferAuthorization, typedData } from './typed-data.js';

/** How long an authorization must still be valid when it reaches Paydesk: time to be mined. */
export const MIN_VALIDITY_SECONDS = 30n;

const refuse = (field: string, rule: string, message: string): FieldError[] => [
  { in: 'body', field: `authorization.${field}`, rule, message },
];

/**
 * The checks of contract §23 that need no chain: recipient, amount, nonce, validity window, signer.
 * `anyNonce`: an x402 client picks its own random nonce (the x402 "exact" scheme), which the record of
 * the authorization then ties to the invoice; the page's wallet button signs the invoice's nonce.
 */
export async function checkAuthorization(
  offer: GaslessOffer,
  a: TransferAuthorization,
  signature: Hex,
  now: Date,
  anyNonce = false,
): Promise<FieldError[]> {
  if (getAddress(a.to) !== offer.payTo) {
    return refuse('to', 'recipient', `the transfer must go to the merchant's payout address ${offer.payTo}`);
  }
  if (a.value !== offer.units) {
    return refuse(
      'value',
      'amount',
      `the transfer must be exactly the amount due, ${offer.units} atomic units of ${offer.currency}`,
    );
  }
  if (!anyNonce && a.nonce.toLowerCase() !== offer.nonce) {
    return refuse('nonce', 'nonce', `the nonce must be this invoice's, ${offer.nonce}`);
  }
  const seconds = BigInt(Math.floor(now.getTime() / 1000));
  if (a.validBefore > offer.validBefore) {
    return refuse('validBefore', 'window', 'the authorization must end no later than the invoice expires');
  }
  if (a.validBefore < seconds + MIN_VALIDITY_SECONDS) {
    return refuse('validBefore', 'expired', 'the authorization has expired, or expires too soon to be mined');
  }
  if (a.validAfter >= seconds) {
    return refuse('validAfter', 'window', 'the authorization is not valid yet');
  }
  let signer: Address;
  try {
    signer = await recoverTypedDataAddress({
      ...typedData(offer.domain, offer.chainId, offer.token, a),
      signature,
    });
  } catch {
    return refuse('signature', 'signature', 'the signature is not a valid secp256k1 signature');
  }
  if (signer !== getAddress(a.from)) {
    return refuse('signature', 'signer', `the signature is not from ${getAddress(a.from)}`);
  }
  return [];
}
