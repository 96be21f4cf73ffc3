// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Tokens that misbehave the ways real ones do, for the forwarder tests. Anyone may mint. Not for any
/// real chain.
abstract contract Minted {
    mapping(address => uint256) public balanceOf;

    event Transfer(address indexed from, address indexed to, uint256 value);

    function mint(address to, uint256 amount) external {
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function mintMany(address[] calldata to, uint256 amount) external {
        for (uint256 i = 0; i < to.length; i++) {
            balanceOf[to[i]] += amount;
            emit Transfer(address(0), to[i], amount);
        }
    }

    function _move(address from, address to, uint256 amount) internal {
        require(balanceOf[from] >= amount, "balance");
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}

/// USDT on Ethereum: `transfer` returns nothing, and reads what TetherToken reads on every transfer
/// (paused, the sender's blacklist entry, deprecated, the fee rate and cap; no fee is charged).
contract TetherLike is Minted {
    address public owner = msg.sender;
    bool public paused;
    mapping(address => bool) public isBlackListed;
    address public upgradedAddress;
    bool public deprecated;
    uint256 public basisPointsRate;
    uint256 public maximumFee;

    function transfer(address to, uint256 value) external {
        require(!paused, "paused");
        require(!isBlackListed[msg.sender], "blacklisted");
        require(!deprecated, "deprecated");
        uint256 fee = (value * basisPointsRate) / 10000;
        if (fee > maximumFee) fee = maximumFee;
        _move(msg.sender, to, value - fee);
        if (fee > 0) _move(msg.sender, owner, fee);
    }
}

/// Answers `false` and moves nothing (how some old tokens refuse, and how USDT on TRON answers).
contract FalseToken is Minted {
    function transfer(address, uint256) external pure returns (bool) {
        return false;
    }
}

/// Every transfer reverts (a paused or blacklisting token).
contract RevertingToken is Minted {
    function transfer(address, uint256) external pure returns (bool) {
        revert("transfers are paused");
    }
}

/// On transfer, first calls `target` with `data` (collect again, or sweep a forwarder directly).
/// `strict`: the transfer fails when that call fails; otherwise the token goes on and transfers.
contract ReentrantToken is Minted {
    address public target;
    bytes public data;
    bool public strict;
    bool public lastCallSucceeded;

    function setHook(address target_, bytes calldata data_, bool strict_) external {
        target = target_;
        data = data_;
        strict = strict_;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        (bool ok,) = target.call(data);
        lastCallSucceeded = ok;
        if (strict) require(ok, "re-entry refused");
        _move(msg.sender, to, amount);
        return true;
    }
}

/// mode 0: transfer burns all the gas it is given. 1: reverts with 64 KiB of data. 2: moves the
/// tokens, then answers `true` followed by 64 KiB (a return bomb that still succeeds).
contract GasBurner is Minted {
    uint256 public immutable mode;

    constructor(uint256 mode_) {
        mode = mode_;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        if (mode == 0) {
            uint256 i;
            while (true) {
                i++;
            }
        }
        if (mode == 1) {
            assembly {
                revert(0, 65536)
            }
        }
        _move(msg.sender, to, amount);
        assembly {
            mstore(0, 1)
            return(0, 65536)
        }
    }
}
