import { type Address, concat, encodeAbiParameters, getContractAddress, type Hex, keccak256 } from 'viem';

/**
 * A forwarder's address, computed off-chain exactly as the factory's `forwarderAddress` view does:
 * CREATE2 by the factory, salt keccak256(abi.encode(payout, salt)), init code the minimal proxy of the
 * implementation. The payout is part of the address: funds sent there can only ever reach it.
 */
export function forwarderAddress(factory: Address, payout: Address, salt: Hex): Address {
  return getContractAddress({
    opcode: 'CREATE2',
    from: factory,
    salt: keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [payout, salt])),
    bytecodeHash: keccak256(cloneInitCode(implementationAddress(factory))),
  });
}

/** The factory's constructor creates the implementation first: CREATE from the factory at nonce 1 (EIP-161). */
export function implementationAddress(factory: Address): Address {
  return getContractAddress({ from: factory, nonce: 1n });
}

/**
 * A forwarder's init code, as the factory builds it (contracts/ForwarderFactory.sol, _cloneInitCode):
 * 9 bytes that return a 38-byte minimal proxy delegating every call to `implementation`.
 */
export function cloneInitCode(implementation: Address): Hex {
  return concat(['0x60268060095f395ff3365f5f375f5f365f73', implementation, '0x5af46025575f5ffd5b']);
}
