import { Wallet } from 'ethers';
import { ApiHarness } from './api-harness';
import { signAuth } from './wallets';
import { x402Header } from './x402';

export const ADMIN = { 'X-Admin-Key': 'test-admin-key-0123456789' };

export interface PaidCall {
  transactionId: string;
  requestId: string;
  /** The payment header that paid it: the payer's proof for a dispute. */
  payment: { name: string; value: string };
  payer: Wallet;
}

/** A sync execute of `translate` paid by `payer` (amount = platform fee + agent fee), asserted charged. */
export async function paidExecute(
  api: ApiHarness,
  agentId: string,
  payer: Wallet,
  amount: bigint,
  input: Record<string, unknown> = { text: 'bonjour' },
): Promise<PaidCall> {
  const payment = await x402Header(payer, { amount, payTo: api.config.platformWallet });
  const res = await api.request('POST', '/api/v1/execute', {
    body: { targetAgentId: agentId, capabilityId: 'translate', input },
    headers: { [payment.name]: payment.value },
  });
  if (res.status !== 200 || !res.body.data.transactionId)
    throw new Error(`execute answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { transactionId: res.body.data.transactionId, requestId: res.body.data.requestId, payment, payer };
}

/** X-Client-Wallet + X-Client-Signature headers: `wallet` signs `agora-auth:<subject>:<ts>`. */
export async function clientSignature(
  wallet: Wallet,
  subjectId: string,
  opts: { claimed?: string; timestampMs?: number } = {},
): Promise<Record<string, string>> {
  return {
    'X-Client-Wallet': opts.claimed ?? wallet.address,
    'X-Client-Signature': await signAuth(wallet, subjectId, opts.timestampMs),
  };
}

/** Files a dispute with the original payment header as the proof (or the given headers). */
export function fileDispute(
  api: ApiHarness,
  call: PaidCall,
  body: Record<string, unknown> = {},
  headers?: Record<string, string>,
) {
  return api.request('POST', '/api/v1/disputes', {
    body: { transactionId: call.transactionId, reason: 'The translation was empty', ...body },
    headers: headers ?? { [call.payment.name]: call.payment.value },
  });
}

export function resolveDispute(api: ApiHarness, disputeId: string, resolution: string, note?: string) {
  return api.request('POST', `/api/v1/admin/disputes/${disputeId}/resolve`, {
    body: { resolution, ...(note ? { note } : {}) },
    headers: ADMIN,
  });
}
