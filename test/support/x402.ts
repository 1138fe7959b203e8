import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '@app/x402';

export const BASE_SEPOLIA_USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';

export interface HeaderOptions {
  amount: bigint;
  payTo: string;
  version?: 1 | 2;
  network?: string;
  chainId?: number;
  asset?: string;
  assetName?: string;
  to?: string;
  /** authorization.from, when it should name another wallet than the signer (a forgery). */
  from?: string;
  value?: bigint;
  validAfter?: bigint;
  validBefore?: bigint;
  nonce?: string;
  /** v2 only: the payload's `extensions` (e.g. a payment identifier). */
  extensions?: Record<string, unknown>;
}

/**
 * An x402 `exact` payment header signed by `wallet`, built like the reference clients build it
 * (EIP-3009 TransferWithAuthorization under the token's EIP-712 domain). Tests that must use the
 * public client libraries do so directly; this is for the many tests that only need to pay.
 */
export async function x402Header(
  wallet: Wallet,
  o: HeaderOptions,
): Promise<{ name: string; value: string; nonce: string }> {
  const now = BigInt(Math.floor(Date.now() / 1000));
  const chainId = o.chainId ?? 84532;
  const asset = o.asset ?? BASE_SEPOLIA_USDC;
  const authorization = {
    from: o.from ?? wallet.address,
    to: o.to ?? o.payTo,
    value: (o.value ?? o.amount).toString(),
    validAfter: (o.validAfter ?? now - 600n).toString(),
    validBefore: (o.validBefore ?? now + 300n).toString(),
    nonce: o.nonce ?? `0x${randomBytes(32).toString('hex')}`,
  };
  const signature = await wallet.signTypedData(
    { name: o.assetName ?? 'USDC', version: '2', chainId, verifyingContract: asset },
    TRANSFER_WITH_AUTHORIZATION_TYPES,
    authorization,
  );
  const payload = { signature, authorization };
  const version = o.version ?? 1;
  const body =
    version === 1
      ? { x402Version: 1, scheme: 'exact', network: o.network ?? 'base-sepolia', payload }
      : {
          x402Version: 2,
          accepted: {
            scheme: 'exact',
            network: o.network ?? `eip155:${chainId}`,
            amount: o.amount.toString(),
            asset,
            payTo: o.payTo,
            maxTimeoutSeconds: 300,
            extra: { name: o.assetName ?? 'USDC', version: '2' },
          },
          payload,
          ...(o.extensions ? { extensions: o.extensions } : {}),
        };
  return {
    name: version === 1 ? 'X-PAYMENT' : 'PAYMENT-SIGNATURE',
    value: Buffer.from(JSON.stringify(body)).toString('base64'),
    nonce: authorization.nonce,
  };
}

export function decodePaymentResponse(header: string | null): {
  success: boolean;
  transaction: string;
  network: string;
  payer: string;
} {
  return JSON.parse(Buffer.from(header ?? '', 'base64').toString('utf8'));
}
