import { checksumAddress } from '../networks/evm-address.js';
import { walletAddressProblem } from '../networks/solana-address.js';
import { TronAddressError, tronAccountId } from '../networks/tron-address.js';

/** How a refund address is written on a method's network: an EVM family, TRON, or the sandbox (EVM-like). */
export type AddressFamily = 'evm' | 'tron' | 'solana' | 'sandbox';

export type AddressCheck = { ok: true; address: string } | { ok: false; rule: string; message: string };

const HEX = /^0x[0-9a-fA-F]{40}$/;

/**
 * The payer's address, checked as typed (contract §18). Money sent to a mistyped address is lost, so
 * an EVM address must carry its EIP-55 checksum: an all-lower-case (or all-upper-case) one carries
 * none and is refused, with the advice to paste it as the wallet shows it. Every wallet shows the
 * mixed-case form. A TRON address is `T…` base58check with its own checksum.
 */
export function checkRefundAddress(family: AddressFamily, typed: string): AddressCheck {
  const text = typed.trim();
  if (family === 'solana') {
    // The refund is paid into the owner's token account: the owner must be a wallet (on the curve).
    const problem = walletAddressProblem(text);
    if (!problem) return { ok: true, address: text };
    return {
      ok: false,
      rule: problem.rule === 'format' ? 'solana_address' : problem.rule,
      message: problem.message.replace(/^solana_address/, 'address'),
    };
  }
  if (family === 'tron') {
    try {
      tronAccountId(text);
      return { ok: true, address: text };
    } catch (err) {
      if (!(err instanceof TronAddressError)) throw err;
      return { ok: false, rule: 'tron_address', message: `address ${err.message}` };
    }
  }
  if (!HEX.test(text)) {
    return {
      ok: false,
      rule: 'evm_address',
      message: 'address must be 0x followed by 40 hexadecimal characters',
    };
  }
  const hex = text.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) {
    return {
      ok: false,
      rule: 'checksum_missing',
      // The checksummed form is offered to compare, not taken for the payer: from an all-one-case
      // address it is computed, so a mistyped character would be "checksummed" just the same.
      message: `address carries no EIP-55 checksum (it is all in one case), the mixed case that catches a mistyped character: paste it exactly as your wallet shows it. If it is exactly the right address, its EIP-55 form is ${checksumAddress(text)}`,
    };
  }
  if (checksumAddress(text) !== text) {
    return {
      ok: false,
      rule: 'checksum',
      message: 'address fails its EIP-55 checksum: copy it again from your wallet',
    };
  }
  if (/^0x0{40}$/i.test(text)) {
    return { ok: false, rule: 'evm_address', message: 'address is the zero address, where tokens are lost' };
  }
  return { ok: true, address: text };
}
