// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// A USDC-like token for the gas benchmark and the tests: it reproduces the *gas shape* of a transfer
/// of Circle's FiatToken v2.2 as deployed on Ethereum (FiatTokenProxy in front of FiatTokenV2_2), not
/// its code. Our own code, written after reading circlefin/stablecoin-evm. Not for any real chain.
///
/// Modelled, per `transfer` through the proxy, in the same order as the real token:
/// - the proxy's selector dispatch, then its admin check: a read of the admin from an unstructured
///   storage slot (the admin may not use the fallback), a read of the implementation from another
///   (the same two slots as FiatTokenProxy), a delegatecall (a cold account the first time), and the
///   copy of the answer back;
/// - `paused` (packed with the pauser's address in one slot, as FiatToken's Pausable stores it);
/// - the blacklist of `msg.sender` and `to`: in v2.2 the flag is the high bit of the balance slot, so
///   the two checks are the first (cold) reads of the two balances, and every later read is warm;
/// - the balance checks and writes, each write checking the blacklist bit and the 2^255 cap again;
/// - the Transfer event and `true`.
/// `balanceOf` goes through the same proxy path and masks the high bit.
///
/// EIP-3009 (contract §23), as FiatToken v2.2's EIP3009 and EIP712Domain do it: `transferWithAuthorization`
/// and `receiveWithAuthorization` in both forms (v, r, s and a 65-byte `signature`), `cancelAuthorization`,
/// `authorizationState`, `DOMAIN_SEPARATOR` built at each call from `name()`, version "2", the chain id
/// and the proxy's address; the `AuthorizationUsed` and `AuthorizationCanceled` events. Per signed
/// transfer: the typed-data hash (two keccak256), one `ecrecover` (3,000 gas), one cold read and write
/// of the authorization's slot, then the same balance path as `transfer`. Unlike FiatToken v2.2, a
/// `signature` is never checked with ERC-1271 (no smart-contract payers here).
///
/// Left out: minters and their allowances (here anyone may `mint`, for tests), `transferFrom`,
/// `approve`, EIP-2612 permits, roles and ownership (anyone may
/// `blacklist`, for tests), rescue, `upgradeToAndCall`, initialisation, and the real storage layout
/// beyond the slots a transfer reads. Compiled with this repository's solc 0.8.30 settings.
///
/// How close: checked once (November 2026) against Circle's own FiatTokenV2_2 and FiatTokenProxy,
/// compiled from circlefin/stablecoin-evm (commit 46e61d0) with solc 0.6.12 and their settings
/// (optimizer, 10,000,000 runs), on the same local Prague node as `npm run bench:gas`: a transfer
/// transaction from an address it empties to one that holds the token, 40,259 gas there and 40,300
/// here; per deposit in a collection of 100, 50,929 there and 50,997 here (first), 13,912 and
/// 13,966 (re-collect), before the EIP-3009 functions were added (their selectors lengthen the
/// dispatch: `npm run bench:gas` now reads about 90 gas more per collected deposit). Not checked:
/// the bytecode on Ethereum itself (its proxy was deployed in 2018 by an older compiler, which may
/// differ by some tens of gas per call), and mainnet receipts, which were not available offline.
/// Close, not equal.

/// The proxy: an admin-upgradeable proxy with the implementation and the admin in unstructured
/// storage slots, as FiatTokenProxy (an AdminUpgradeabilityProxy) does.
contract UsdcLikeProxy {
    // keccak256("org.zeppelinos.proxy.implementation") and keccak256("org.zeppelinos.proxy.admin"),
    // FiatTokenProxy's slots (test/usdc-like.test.ts checks both).
    bytes32 private constant IMPLEMENTATION_SLOT = 0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3;
    bytes32 private constant ADMIN_SLOT = 0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390b;

    event Upgraded(address implementation);

    /// `admin_` is passed in (the real proxy takes its deployer and hands over with `changeAdmin`):
    /// the admin cannot use the token through its proxy, so tests keep it apart from their senders.
    constructor(address implementation_, address admin_) {
        _store(IMPLEMENTATION_SLOT, implementation_);
        _store(ADMIN_SLOT, admin_);
    }

    /// For the admin, the proxy's admin functions; for anyone else, the token's of the same name.
    modifier ifAdmin() {
        if (msg.sender == _load(ADMIN_SLOT)) {
            _;
        } else {
            _delegate();
        }
    }

    function admin() external view returns (address) {
        return _load(ADMIN_SLOT);
    }

    function implementation() external view returns (address) {
        return _load(IMPLEMENTATION_SLOT);
    }

    function changeAdmin(address admin_) external ifAdmin {
        require(admin_ != address(0), "zero admin");
        _store(ADMIN_SLOT, admin_);
    }

    function upgradeTo(address implementation_) external ifAdmin {
        require(implementation_.code.length > 0, "not a contract");
        _store(IMPLEMENTATION_SLOT, implementation_);
        emit Upgraded(implementation_);
    }

    fallback() external payable {
        _delegate();
    }

    receive() external payable {
        _delegate();
    }

    /// The admin check on every call that reaches the token: one more cold read, as in the real proxy.
    function _delegate() private {
        require(msg.sender != _load(ADMIN_SLOT), "admin cannot fall back");
        address target = _load(IMPLEMENTATION_SLOT);
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), target, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if ok { return(0, returndatasize()) }
            revert(0, returndatasize())
        }
    }

    function _load(bytes32 slot) private view returns (address value) {
        assembly {
            value := sload(slot)
        }
    }

    function _store(bytes32 slot, address value) private {
        assembly {
            sstore(slot, value)
        }
    }
}

/// The implementation. Its storage is the proxy's; the first slots follow FiatToken's order (owner,
/// then pauser and `paused` packed, then blacklister) so `paused` shares a slot with an address.
contract UsdcLike {
    uint256 private constant BLACKLISTED = 1 << 255;

    address public owner;
    address public pauser;
    bool public paused;
    address public blacklister;
    uint256 public totalSupply;
    /// The balance in the low 255 bits, the blacklist flag in the high bit (FiatToken v2.2).
    mapping(address => uint256) private balanceAndBlacklist;
    /// EIP-3009: authorizer => nonce => used (or canceled).
    mapping(address => mapping(bytes32 => bool)) private authorizationStates;

    // keccak256("TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)")
    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH =
        0x7c7c6cdb67a18743f49ec6fa9b35f50d52ed05cbed4cc592e13b44501c1a2267;
    // keccak256("ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)")
    bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH =
        0xd099cc98ef71107a616c4f0f941f04c322d8e254fe26b3c6668db87aae413de8;
    // keccak256("CancelAuthorization(address authorizer,bytes32 nonce)")
    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH =
        0x158b0a9edf7a828aad02f63cd515c68ef2f50ba807396f6d12842833a1597429;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Blacklisted(address indexed account);
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    function name() public pure returns (string memory) {
        return "USD-like test coin";
    }

    /// The EIP-712 domain's version, as FiatToken v2.2 answers it.
    function version() public pure returns (string memory) {
        return "2";
    }

    /// EIP-712's domain separator: built at each call, so it follows the chain id (as v2.2's does).
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256(bytes(name())),
                keccak256(bytes(version())),
                block.chainid,
                address(this)
            )
        );
    }

    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return authorizationStates[authorizer][nonce];
    }

    /// Anyone may submit it: the money moves from `from`, who signed, to `to`.
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        transferWithAuthorization(from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v));
    }

    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) public {
        _authorized(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature);
        _checkedMove(from, to, value);
    }

    /// Only the payee may submit it: keeps a front-runner from making the payee miss its own call.
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        require(to == msg.sender, "FiatTokenV2: caller must be the payee");
        _authorized(
            RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v)
        );
        _checkedMove(from, to, value);
    }

    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        require(!paused, "paused");
        require(!authorizationStates[authorizer][nonce], "FiatTokenV2: authorization is used or canceled");
        bytes32 digest = _typedData(keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce)));
        require(_recover(digest, abi.encodePacked(r, s, v)) == authorizer, "FiatTokenV2: invalid signature");
        authorizationStates[authorizer][nonce] = true;
        emit AuthorizationCanceled(authorizer, nonce);
    }

    function symbol() external pure returns (string memory) {
        return "USDCL";
    }

    function decimals() external pure returns (uint8) {
        return 6;
    }

    function balanceOf(address account) external view returns (uint256) {
        return _balance(account);
    }

    function isBlacklisted(address account) external view returns (bool) {
        return _blacklisted(account);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        require(!paused, "paused");
        require(!_blacklisted(msg.sender), "sender blacklisted");
        require(!_blacklisted(to), "recipient blacklisted");
        _move(msg.sender, to, value);
        return true;
    }

    /// For tests: anyone may mint (the real token has minters with allowances).
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function mintMany(address[] calldata to, uint256 amount) external {
        for (uint256 i = 0; i < to.length; i++) {
            _mint(to[i], amount);
        }
    }

    /// For tests: anyone may blacklist (the real token has a blacklister). Keeps the balance.
    function blacklist(address account) external {
        balanceAndBlacklist[account] |= BLACKLISTED;
        emit Blacklisted(account);
    }

    function setPaused(bool paused_) external {
        paused = paused_;
    }

    /// The checks of FiatToken v2.2's `_requireValidAuthorization`, with its messages, then the nonce is spent.
    function _authorized(
        bytes32 typeHash,
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) private {
        require(!paused, "paused");
        require(block.timestamp > validAfter, "FiatTokenV2: authorization is not yet valid");
        require(block.timestamp < validBefore, "FiatTokenV2: authorization is expired");
        require(!authorizationStates[from][nonce], "FiatTokenV2: authorization is used or canceled");
        bytes32 digest =
            _typedData(keccak256(abi.encode(typeHash, from, to, value, validAfter, validBefore, nonce)));
        require(_recover(digest, signature) == from, "FiatTokenV2: invalid signature");
        authorizationStates[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
    }

    function _checkedMove(address from, address to, uint256 value) private {
        require(!_blacklisted(from), "sender blacklisted");
        require(!_blacklisted(to), "recipient blacklisted");
        _move(from, to, value);
    }

    function _typedData(bytes32 structHash) private view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
    }

    /// ecrecover of a 65-byte r ‖ s ‖ v signature; refuses a high s (malleable) and a v other than 27/28.
    function _recover(bytes32 digest, bytes memory signature) private pure returns (address signer) {
        require(signature.length == 65, "ECRecover: invalid signature length");
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
        require(
            uint256(s) <= 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0,
            "ECRecover: invalid signature 's' value"
        );
        require(v == 27 || v == 28, "ECRecover: invalid signature 'v' value");
        signer = ecrecover(digest, v, r, s);
        require(signer != address(0), "ECRecover: invalid signature");
    }

    function _mint(address to, uint256 amount) private {
        require(!paused, "paused");
        require(to != address(0), "mint to zero");
        totalSupply += amount;
        _setBalance(to, _balance(to) + amount);
        emit Transfer(address(0), to, amount);
    }

    /// Reads each balance again before writing it, as the real token's `_transfer` does (warm reads).
    function _move(address from, address to, uint256 value) private {
        require(from != address(0) && to != address(0), "zero address");
        require(value <= _balance(from), "balance");
        _setBalance(from, _balance(from) - value);
        _setBalance(to, _balance(to) + value);
        emit Transfer(from, to, value);
    }

    /// Every write checks the cap and the blacklist bit of the slot it overwrites.
    function _setBalance(address account, uint256 balance) private {
        require(balance < BLACKLISTED, "balance too large");
        require(!_blacklisted(account), "blacklisted");
        balanceAndBlacklist[account] = balance;
    }

    function _blacklisted(address account) private view returns (bool) {
        return balanceAndBlacklist[account] >= BLACKLISTED;
    }

    function _balance(address account) private view returns (uint256) {
        return balanceAndBlacklist[account] & (BLACKLISTED - 1);
    }
}
