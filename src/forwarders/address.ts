import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import { type Address, checksumAddress } from '../networks/evm-address.js';
import { FACTORY_BYTECODE } from './artifact.js';

const strip = (hex: string) => (hex.startsWith('0x') ? hex.slice(2) : hex);

/**
 * A forwarder's address, computed off-chain exactly as the factory's `forwarderAddress` view does:
 * CREATE2 by the factory, salt keccak256(abi.encode(payout, salt)), init code the minimal proxy of the
 * implementation. The payout is part of the address: funds sent there can only ever reach it.
 *
 * Plain keccak over bytes (@noble/hashes), not viem: the API computes one per invoice it creates, and
 * viem costs an API process some 25 MB to load (networks/evm-address.ts). salt.test.ts and
 * factory.test.ts hold it to viem's and the contract's own answers.
 */
export function forwarderAddress(factory: string, payout: string, salt: string): Address {
  const finalSalt = keccak_256(concatBytes(word(payout), hexToBytes(strip(salt))));
  return create2(factory, finalSalt, initCodeHash(factory));
}

/**
 * The keyless deterministic-deployment proxy (github.com/Arachnid/deterministic-deployment-proxy):
 * the same address on every chain, because it is deployed by one presigned transaction that no one
 * holds a key for. Whatever it deploys lands at CREATE2(proxy, salt, init code), on every chain alike.
 */
export const DEPLOYMENT_PROXY: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c';

/** Salt zero: the factory has one address, and anyone may deploy it there (it has no owner to capture). */
export const FACTORY_SALT: `0x${string}` = `0x${'00'.repeat(32)}`;

/** Where the factory is, on every chain: CREATE2 by the proxy of its creation bytecode at salt zero. */
export const FACTORY_ADDRESS: Address = create2(
  DEPLOYMENT_PROXY,
  hexToBytes(strip(FACTORY_SALT)),
  keccak_256(hexToBytes(strip(FACTORY_BYTECODE))),
);

function create2(from: string, salt: Uint8Array, codeHash: Uint8Array): Address {
  const hash = keccak_256(concatBytes(Uint8Array.of(0xff), hexToBytes(strip(from)), salt, codeHash));
  return checksumAddress(`0x${bytesToHex(hash.slice(12))}`);
}

const codeHashes = new Map<string, Uint8Array>();

/** keccak256 of a forwarder's init code: one per factory, so computed once. */
function initCodeHash(factory: string): Uint8Array {
  const key = factory.toLowerCase();
  let hash = codeHashes.get(key);
  if (!hash) {
    hash = keccak_256(hexToBytes(strip(cloneInitCode(implementationAddress(factory)))));
    codeHashes.set(key, hash);
  }
  return hash;
}

/** The factory's constructor creates the implementation first: CREATE from the factory at nonce 1 (EIP-161). */
export function implementationAddress(factory: string): Address {
  // RLP of [factory, 1]: a list of 22 bytes (0xd6), a 20-byte string (0x94), then the nonce 1 as itself.
  const rlp = concatBytes(Uint8Array.of(0xd6, 0x94), hexToBytes(strip(factory)), Uint8Array.of(0x01));
  return checksumAddress(`0x${bytesToHex(keccak_256(rlp).slice(12))}`);
}

/**
 * A forwarder's init code, as the factory builds it (contracts/ForwarderFactory.sol, _cloneInitCode):
 * 9 bytes that return a 38-byte minimal proxy delegating every call to `implementation`.
 */
export function cloneInitCode(implementation: string): `0x${string}` {
  return `0x60268060095f395ff3365f5f375f5f365f73${strip(implementation).toLowerCase()}5af46025575f5ffd5b`;
}

/** An address as an ABI word: 12 zero bytes, then its 20. */
function word(address: string): Uint8Array {
  return concatBytes(new Uint8Array(12), hexToBytes(strip(address)));
}
