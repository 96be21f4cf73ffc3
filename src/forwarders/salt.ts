import { encodeAbiParameters, type Hex, keccak256 } from 'viem';

/**
 * The forwarder salt of one invoice: keccak256(abi.encode(projectId, invoiceId)). Both ids are in it,
 * so two projects never share a forwarder even with the same payout address, and abi.encode keeps
 * ("ab", "c") and ("a", "bc") apart. Public ids only: the salt is visible on-chain once collected.
 */
export function invoiceSalt(projectId: string, invoiceId: string): Hex {
  return keccak256(encodeAbiParameters([{ type: 'string' }, { type: 'string' }], [projectId, invoiceId]));
}
