import {
  AgoraClient,
  ConflictError,
  decodeX402Header,
  ExecutionFailedError,
  NotFoundError,
  PaymentError,
  paymentSignatureHeader,
} from '@agora/sdk';
import type { PaymentRequired } from '@x402/core/types';
import { DataSource } from 'typeorm';
import type { ApiHarness } from '../support/api-harness';
import { ApiWithAgent, startApiWithAgent } from '../support/api-with-agent';
import { x402Payer } from '../support/mcp-pay-per-call';
import { newWallet } from '../support/wallets';
import { executionCounts } from '../support/x402-client';

/**
 * The SDK's call of a capability's own x402 resource with the caller's payment (what apps/mcp's
 * pay-per-call mode is built on): a client with no wallet, the api's 402 and PAYMENT-RESPONSE
 * read as they came, every other refusal its typed error.
 */
describe('SDK callCapability (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentId: string;
  let sdk: AgoraClient;

  let stack: ApiWithAgent;

  beforeAll(async () => {
    stack = await startApiWithAgent();
    ({ api, ds, agentId } = stack);
    sdk = new AgoraClient({ baseUrl: api.baseUrl });
  });
  afterAll(() => stack.stop());

  const call = (input: Record<string, unknown>, payment?: { name: string; value: string }) =>
    sdk.callCapability({ agentId, capabilityId: 'translate', input, payment });
  const offer = async (input: Record<string, unknown>) => {
    const answer = await call(input);
    if (answer.kind !== 'payment-required') throw new Error(`expected a 402, got ${answer.kind}`);
    return answer;
  };

  it("answers the 402 as the PAYMENT-REQUIRED object, then runs a paid call with the API's PAYMENT-RESPONSE", async () => {
    const unpaid = await offer({ text: 'sdk' });
    expect(unpaid.paymentRequired).toEqual(decodeX402Header(unpaid.header));
    expect(unpaid.paymentRequired).toMatchObject({
      x402Version: 2,
      accepts: [expect.objectContaining({ amount: '11000' })],
    });
    expect(unpaid.error).toBeInstanceOf(PaymentError);
    expect(unpaid.error).toMatchObject({ code: 'PAYMENT_REQUIRED', status: 402 });

    const wallet = newWallet();
    const payload = await x402Payer(wallet)(unpaid.paymentRequired as unknown as PaymentRequired);
    const paid = await call({ text: 'sdk' }, paymentSignatureHeader(payload as unknown as Record<string, unknown>));
    if (paid.kind !== 'executed') throw new Error('expected a run');
    expect(paid.execution).toMatchObject({ status: 'completed', output: { translation: 'SDK' } });
    expect(paid.paymentResponse).toEqual(decodeX402Header(paid.header));
    expect(paid.paymentResponse).toMatchObject({ success: true, transaction: expect.any(String) });
    expect(String(paid.paymentResponse!.payer).toLowerCase()).toBe(wallet.address.toLowerCase());

    // The same header again with the same input (a client that lost the answer): that execution, not run again.
    const before = await executionCounts(ds);
    const again = await call({ text: 'sdk' }, paymentSignatureHeader(payload as unknown as Record<string, unknown>));
    if (again.kind !== 'executed') throw new Error('expected the same execution');
    expect(again.execution).toMatchObject({ requestId: paid.execution.requestId, output: { translation: 'SDK' } });
    // With other input: the API's PAYMENT_REPLAYED (409), thrown as typed.
    await expect(
      call({ text: 'other' }, paymentSignatureHeader(payload as unknown as Record<string, unknown>)),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(await executionCounts(ds)).toEqual(before);
  });

  it("answers a payment the API refuses with its 402 and the refusal's code", async () => {
    const unpaid = await offer({ text: 'bad' });
    const payload = await x402Payer(newWallet())(unpaid.paymentRequired as unknown as PaymentRequired);
    const tampered = { ...payload, accepted: { ...payload.accepted, amount: '1' } };
    const answer = await call({ text: 'bad' }, paymentSignatureHeader(tampered as unknown as Record<string, unknown>));
    expect(answer.kind).toBe('payment-required');
    if (answer.kind === 'payment-required') expect(answer.error.code).toBe('PAYMENT_INVALID');
  });

  it("throws an agent's failure and an unknown agent as their typed errors", async () => {
    const unpaid = await offer({ text: 'x', mode: 'fail' });
    const payload = await x402Payer(newWallet())(unpaid.paymentRequired as unknown as PaymentRequired);
    const failed = call(
      { text: 'x', mode: 'fail' },
      paymentSignatureHeader(payload as unknown as Record<string, unknown>),
    );
    await expect(failed).rejects.toBeInstanceOf(ExecutionFailedError);
    await expect(failed).rejects.toMatchObject({ code: 'EXECUTION_FAILED', requestId: expect.any(String) });
    await expect(
      sdk.callCapability({ agentId: '00000000-0000-4000-8000-000000000000', capabilityId: 'translate', input: {} }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
