/* The typed data of signed offers and receipts as docs/receipts.md gives it to a client: tests check with these, not agora's code. */
/**
 * What docs/receipts.md tells a client of agora's delivery statement (an EIP-712 receipt's `delivery`),
 * checked here with viem alone; the extension's own receipt beside it is checked with @x402/extensions.
 */
export const DELIVERY_TYPES = {
  AgoraReceipt: [
    { name: 'version', type: 'uint256' },
    { name: 'network', type: 'string' },
    { name: 'resourceUrl', type: 'string' },
    { name: 'payer', type: 'string' },
    { name: 'issuedAt', type: 'uint256' },
    { name: 'transaction', type: 'string' },
    { name: 'requestCommitment', type: 'bytes32' },
    { name: 'agentId', type: 'string' },
    { name: 'capabilityId', type: 'string' },
    { name: 'amount', type: 'string' },
    { name: 'agentFee', type: 'string' },
    { name: 'platformFee', type: 'string' },
    { name: 'inputHash', type: 'bytes32' },
    { name: 'contentHash', type: 'bytes32' },
    { name: 'settlementPending', type: 'bool' },
  ],
} as const;
export const DELIVERY_DOMAIN = { name: 'agora receipt', version: '1', chainId: 1 } as const;
export const OFFER_TYPES = {
  Offer: [
    { name: 'version', type: 'uint256' },
    { name: 'resourceUrl', type: 'string' },
    { name: 'scheme', type: 'string' },
    { name: 'network', type: 'string' },
    { name: 'asset', type: 'string' },
    { name: 'payTo', type: 'string' },
    { name: 'amount', type: 'string' },
    { name: 'validUntil', type: 'uint256' },
  ],
} as const;
export const OFFER_DOMAIN = { name: 'x402 offer', version: '1', chainId: 1 } as const;
