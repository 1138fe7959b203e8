// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The EIP-3009 entry point of USDC (FiatToken v2) and of the project's TestUSDC.
interface IERC3009 {
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
    ) external;
}

/// @title Settles many x402 `exact` authorizations in one transaction.
/// @notice Anyone may call it: each authorization names its own recipient, so relaying one can
///         only pay whom its signer chose. Each is tried on its own; one that fails (used,
///         expired, unfunded, badly signed) emits SettlementFailed(index) and the rest still
///         settle. The token's AuthorizationUsed log tells which ones moved money.
contract SettlementBatcher {
    struct Authorization {
        address from;
        address to;
        uint256 value;
        uint256 validAfter;
        uint256 validBefore;
        bytes32 nonce;
        uint8 v;
        bytes32 r;
        bytes32 s;
    }

    event SettlementFailed(uint256 indexed index);

    function settle(IERC3009 token, Authorization[] calldata auths) external {
        uint256 n = auths.length;
        for (uint256 i; i < n; ) {
            Authorization calldata a = auths[i];
            try token.transferWithAuthorization(a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, a.v, a.r, a.s) {} catch {
                emit SettlementFailed(i);
            }
            unchecked {
                ++i;
            }
        }
    }
}
