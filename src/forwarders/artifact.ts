import { readFileSync } from 'node:fs';
import type { Abi, Hex } from 'viem';

/**
 * The compiled factory (contracts/ForwarderFactory.json, written by `npm run contracts:compile` and
 * checked against its source by a test). Its creation bytecode fixes the factory's address on every
 * chain, and with it every forwarder's: it never changes once deployed.
 */
interface Artifact {
  compiler: string;
  abi: Abi;
  bytecode: Hex;
  forwarder: { abi: Abi };
}

const artifact: Artifact = JSON.parse(
  readFileSync(new URL('../../contracts/ForwarderFactory.json', import.meta.url), 'utf8'),
);

export const FACTORY_ABI = artifact.abi;
export const FACTORY_BYTECODE = artifact.bytecode;
/** The forwarders' own interface: `sweep`, which answers the factory only. */
export const FORWARDER_ABI = artifact.forwarder.abi;
