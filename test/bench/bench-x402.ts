import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { RequestHeaders, x402V1Header } from './bench-lib';

/** An x402 v2 PAYMENT-SIGNATURE value (base-sepolia), with a fresh x402 payment identifier when `paymentId`. */
export function x402V2Header(
  wallet: Wallet,
  amount: bigint,
  o: { usdc: string; payTo: string; paymentId?: boolean },
): string {
  const v1 = JSON.parse(Buffer.from(x402V1Header(wallet, amount, o), 'base64').toString());
  const accepted = {
    scheme: 'exact',
    network: 'eip155:84532',
    amount: amount.toString(),
    asset: o.usdc,
    payTo: o.payTo,
  };
  const id = `pay_${randomBytes(16).toString('hex')}`;
  const extensions = o.paymentId ? { 'payment-identifier': { info: { required: false, id } } } : undefined;
  return Buffer.from(JSON.stringify({ x402Version: 2, accepted, payload: v1.payload, extensions })).toString('base64');
}

/**
 * `count` fresh payment headers from 8 wallets: x402 v1 (X-PAYMENT), or v2 (PAYMENT-SIGNATURE)
 * without (`plain`) or with (`id`) a payment identifier, each for a new logical request.
 */
export function paymentHeaders(
  count: number,
  amount: bigint,
  o: { usdc: string; payTo: string; v2?: 'plain' | 'id' },
): RequestHeaders[] {
  const wallets = Array.from({ length: 8 }, () => new Wallet(Wallet.createRandom().privateKey));
  return Array.from({ length: count }, (_, i): RequestHeaders => {
    const w = wallets[i % wallets.length];
    return o.v2
      ? { 'payment-signature': x402V2Header(w, amount, { ...o, paymentId: o.v2 === 'id' }) }
      : { 'x-payment': x402V1Header(w, amount, o) };
  });
}
