// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// The code behind every forwarder (each forwarder is a minimal proxy that delegates here). It has
/// no storage and no initializer: a forwarder costs its 38 bytes of code and nothing else to deploy.
contract Forwarder {
    /// The factory that deployed this implementation. Immutable, so it lives in the code every
    /// forwarder delegates to: no forwarder can be made to obey anyone else.
    address private immutable FACTORY;

    constructor() {
        FACTORY = msg.sender;
    }

    /// Native coin sent to a deployed forwarder stays until the next collection.
    receive() external payable {}

    /// Moves this forwarder's whole balance of `token` (native coin when `token` is zero) to `to`;
    /// reverts on any failure so the factory can report it.
    ///
    /// Trust: only the factory may call. The factory reaches a forwarder only at the CREATE2 address
    /// derived from (payout, salt) and always passes that same payout as `to`, so the destination of a
    /// forwarder's funds is fixed by its address. Anyone else, this implementation's own address
    /// included, is refused.
    function sweep(address token, address to) external {
        if (msg.sender != FACTORY) revert();
        assembly ("memory-safe") {
            if iszero(token) {
                let amount := selfbalance()
                // The payout may be a contract wallet (a Safe), so it gets the gas left, which the
                // factory bounds; nothing it answers is copied.
                if amount {
                    if iszero(call(gas(), to, amount, 0, 0, 0, 0)) { revert(0, 0) }
                }
                return(0, 0)
            }
            let p := mload(0x40)
            // balanceOf(address(this)). An address without code answers nothing and is refused here,
            // which also makes an empty answer from transfer below mean a real, Tether-like token.
            mstore(p, shl(224, 0x70a08231))
            mstore(add(p, 0x04), address())
            if iszero(staticcall(gas(), token, p, 0x24, 0, 0x20)) { revert(0, 0) }
            if lt(returndatasize(), 0x20) { revert(0, 0) }
            let amount := mload(0)
            if iszero(amount) { return(0, 0) }
            // transfer(to, amount). At most one word of the answer is copied (a return bomb costs the
            // token, not us). Success is no answer at all (USDT on Ethereum) or a first word of 1;
            // false, anything else, or a revert is a failure.
            mstore(p, shl(224, 0xa9059cbb))
            mstore(add(p, 0x04), to)
            mstore(add(p, 0x24), amount)
            mstore(0, 0)
            let ok := call(gas(), token, 0, p, 0x44, 0, 0x20)
            ok := and(ok, or(iszero(returndatasize()), and(gt(returndatasize(), 0x1f), eq(mload(0), 1))))
            if iszero(ok) { revert(0, 0) }
        }
    }
}

/// Deploys and empties deposit forwarders. No owner, no admin, no upgrade, no selfdestruct: what it
/// does is fixed by this code, and anyone may call it (the collector key only pays the gas).
contract ForwarderFactory {
    struct Item {
        bytes32 salt;
        address token;
    }

    /// One deposit could not be moved (a token that reverts, returns false or burns its gas; a payout
    /// that refuses native coin). Its funds stay in the forwarder; the rest of the batch goes on.
    /// Successes emit nothing of ours: the token's own Transfer event (forwarder → payout) says it,
    /// and an event of ours would cost about 1,500 gas per deposit.
    event SweepFailed(address indexed forwarder, address indexed token);

    error Reentered();
    error ZeroPayout();
    error NotEnoughGas();
    error DeployFailed();

    /// Gas one sweep may use. A real transfer of USDT or USDC from a cold account costs well under
    /// half of this; a token that burns gas wastes at most this per deposit, and cannot starve the
    /// deposits after it.
    uint256 public constant SWEEP_GAS = 100_000;
    /// A forwarder's deployment costs about 40,000 gas; the margin also covers the loop around it.
    uint256 private constant DEPLOY_GAS = 50_000;
    /// What must be left before a sweep: SWEEP_GAS itself, the 1/64 a call keeps back, and the rest
    /// of the loop.
    uint256 private constant SWEEP_RESERVE = SWEEP_GAS + SWEEP_GAS / 63 + 10_000;

    address public immutable IMPLEMENTATION;
    bytes32 public immutable CLONE_INIT_CODE_HASH;

    bool private transient entered;

    constructor() {
        IMPLEMENTATION = address(new Forwarder());
        CLONE_INIT_CODE_HASH = keccak256(_cloneInitCode(IMPLEMENTATION));
    }

    /// The forwarder of `payout` and `salt`, deployed or not. The payout is hashed into the CREATE2
    /// salt: a forwarder's address commits to where its funds can go.
    function forwarderAddress(address payout, bytes32 salt) external view returns (address) {
        return _forwarder(_salt(payout, salt));
    }

    /// Deploys each item's forwarder if it has no code yet, then moves its balance of the item's
    /// token to `payout`. A caller passing another payout addresses other forwarders (empty ones,
    /// unless that payout's own); it cannot reach these.
    ///
    /// `fresh`: the first `fresh` items' forwarders were never deployed, as far as the caller knows.
    /// It is a hint for gas only (deploying without first looking at the address saves a cold account
    /// access, 2,600 gas); a wrong hint costs gas, never funds.
    function collect(address payout, Item[] calldata items, uint256 fresh) external {
        // No path of ours calls back into collect; a token trying to is refused outright.
        if (entered) revert Reentered();
        // Native coin sent to the zero address is burnt; no merchant's payout is the zero address.
        if (payout == address(0)) revert ZeroPayout();
        entered = true;
        bytes memory initCode = _cloneInitCode(IMPLEMENTATION);
        for (uint256 i = 0; i < items.length; ++i) {
            bytes32 salt = _salt(payout, items[i].salt);
            address forwarder = _forwarder(salt);
            address token = items[i].token;
            if (i < fresh) {
                if (gasleft() < DEPLOY_GAS + SWEEP_RESERVE) revert NotEnoughGas();
                // In a call of its own with bounded gas: had anyone deployed this forwarder since the
                // collector looked, CREATE2 would fail and burn all the gas it was given; DEPLOY_GAS
                // then, not the whole batch's. Its outcome is not read: the code check below is.
                (bool ignored,) = address(this).call{gas: DEPLOY_GAS}(abi.encodeCall(this.deploy, (salt)));
                ignored;
            }
            if (forwarder.code.length == 0) {
                if (gasleft() < DEPLOY_GAS + SWEEP_RESERVE) revert NotEnoughGas();
                address deployed;
                assembly ("memory-safe") {
                    deployed := create2(0, add(initCode, 0x20), mload(initCode), salt)
                }
                if (deployed != forwarder) revert DeployFailed();
            }
            // The sweep must really get SWEEP_GAS (a call gets at most 63/64 of what is left), or a
            // failure would be ours, not the token's: too little gas reverts the whole transaction, so
            // nothing is marked failed for want of gas and a retry with more gas collects everything.
            if (gasleft() < SWEEP_RESERVE) revert NotEnoughGas();
            bool ok;
            assembly ("memory-safe") {
                let p := mload(0x40)
                mstore(p, shl(224, 0xb8dc491b)) // sweep(address,address)
                mstore(add(p, 0x04), token)
                mstore(add(p, 0x24), payout)
                // A fixed gas budget, and nothing that comes back is copied (revert data included).
                ok := call(SWEEP_GAS, forwarder, 0, p, 0x44, 0, 0)
            }
            if (!ok) emit SweepFailed(forwarder, token);
        }
        entered = false;
    }

    /// Deploys the forwarder of a final salt (keccak256(abi.encode(payout, salt))). Open to anyone,
    /// like collect: a forwarder's code and destination are fixed by its address, whoever deploys it.
    /// Reverts when the address already holds it.
    function deploy(bytes32 salt) external {
        bytes memory initCode = _cloneInitCode(IMPLEMENTATION);
        address deployed;
        assembly ("memory-safe") {
            deployed := create2(0, add(initCode, 0x20), mload(initCode), salt)
        }
        if (deployed == address(0)) revert DeployFailed();
    }

    /// keccak256(abi.encode(payout, salt)): the CREATE2 salt binds the payout.
    function _salt(address payout, bytes32 salt) private pure returns (bytes32 h) {
        assembly ("memory-safe") {
            mstore(0, payout)
            mstore(0x20, salt)
            h := keccak256(0, 0x40)
        }
    }

    /// CREATE2's address: the last 20 bytes of keccak256(0xff ++ this ++ salt ++ keccak256(init code)).
    function _forwarder(bytes32 salt) private view returns (address a) {
        bytes32 codeHash = CLONE_INIT_CODE_HASH;
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore(add(p, 0x01), shl(96, address()))
            mstore8(p, 0xff)
            mstore(add(p, 0x15), salt)
            mstore(add(p, 0x35), codeHash)
            a := and(keccak256(p, 0x55), 0xffffffffffffffffffffffffffffffffffffffff)
        }
    }

    /// A forwarder: a 38-byte minimal proxy in the manner of EIP-1167, whose 45 bytes also pass the
    /// answer back; `sweep` answers nothing, and each byte of code costs 200 gas to deploy. Runtime:
    ///   calldatacopy(0, 0, calldatasize())
    ///   if delegatecall(gas(), implementation, 0, calldatasize(), 0, 0) { stop() }
    ///   revert(0, 0)
    /// behind 9 bytes of init code that return it: codecopy(0, 9, 38) return(0, 38).
    function _cloneInitCode(address implementation) private pure returns (bytes memory) {
        return abi.encodePacked(
            hex"60268060095f395ff3", hex"365f5f375f5f365f73", implementation, hex"5af46025575f5ffd5b"
        );
    }
}
