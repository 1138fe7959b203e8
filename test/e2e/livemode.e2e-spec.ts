import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { fileDispute, paidExecute, resolveDispute } from '../support/disputes';
import { registerPricedAgent } from '../support/factories';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 2_001_000n; // 0.001 platform fee + 2.00 agent fee

/**
 * Local settlement says it is a test: `livemode: false` on every money object, and a marked 402. What
 * the transport shows; the money of the same flows: test/medium/disputes-*.medium-spec.ts.
 */
describe('livemode in local settlement (e2e)', () => {
  let api: ApiHarness;
  let agentServer: TestAgentServer;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  const agent = () => registerPricedAgent(api, agentServer.url);

  it('marks the local 402 as a test, keeping it valid x402 (extra.livemode false, the v2 error says so)', async () => {
    const a = await agent();
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: a.id, capabilityId: 'translate', input: { text: 'hi' } },
    });
    expect(res.status).toBe(402);
    expect(res.body.accepts[0]).toMatchObject({
      network: 'base-sepolia',
      extra: { name: 'USDC', version: '2', livemode: false },
    });
    const v2 = JSON.parse(Buffer.from(res.headers.get('payment-required')!, 'base64').toString());
    expect(v2.error).toMatch(/test mode: local settlement .* no USDC moves and its transaction hash is made up/);
    expect(v2.accepts[0].extra).toEqual({ name: 'USDC', version: '2', livemode: false });
  });

  it('answers livemode false on executions, their settlement, transactions and refunds', async () => {
    const a = await agent();
    const call = await paidExecute(api, a.id, newWallet(), PRICE);
    const read = await api.request('GET', `/api/v1/execute/${call.requestId}`, {
      headers: { [call.payment.name]: call.payment.value },
    });
    expect(read.body.data).toMatchObject({
      status: 'completed',
      livemode: false,
      settlement: { status: 'settled', livemode: false },
    });
    const tx = await api.request('GET', `/api/v1/payments/tx/${call.transactionId}`);
    expect(tx.body.data).toMatchObject({ id: call.transactionId, livemode: false });
    const history = await api.request('GET', `/api/v1/payments/history/${a.id}`, {
      headers: await walletHeaders(a.wallet, a.id, null),
    });
    expect(history.body.data.map((t: { livemode: boolean }) => t.livemode)).toEqual([false]);

    // A dispute's refund, filed, resolved and read: test money too.
    const filed = await fileDispute(api, call, { reason: 'Not what I asked for' });
    expect(filed.body.data).toMatchObject({ disputeId: expect.stringMatching(/^dsp_/), livemode: false });
    const resolved = await resolveDispute(api, filed.body.data.disputeId, 'client_wins');
    expect(resolved.body.data).toMatchObject({ status: 'resolved', refundedAmount: '2.000000', livemode: false });
    expect((await api.request('GET', `/api/v1/disputes/${filed.body.data.disputeId}`)).body.data).toMatchObject({
      livemode: false,
    });

    const h = await x402Header(newWallet(), { amount: 51_000n, payTo: api.config.platformWallet });
    const chat = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: a.id, capabilityId: 'chat', input: { text: 'hi', tokens: 1_500 } },
      headers: { [h.name]: h.value },
    });
    expect(chat.body.data).toMatchObject({
      livemode: false,
      settlement: { livemode: false },
      refund: { amount: '0.047000', livemode: false },
    });
  });

  it('answers livemode false on withdrawals: requested, read and listed', async () => {
    const a = await agent();
    // Earned by a paid execute, released at once (score 90), so 1.50 of its 1.90 can be withdrawn.
    await api.app.get(DataSource).query(`UPDATE agents SET reputation_score = 90 WHERE id = $1`, [a.id]);
    await paidExecute(api, a.id, newWallet(), PRICE);
    const headers = await walletHeaders(a.wallet, a.id, 'POST /api/v1/payments/withdraw');
    const res = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId: a.id, amount: '1.50', destinationWallet: newWallet().address },
      headers,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      livemode: false,
      message: expect.stringMatching(/Test mode: no real USDC is sent/),
    });
    const one = await api.request('GET', `/api/v1/payments/withdrawal/${res.body.data.withdrawalId}`);
    expect(one.body.data.livemode).toBe(false);
    const list = await api.request('GET', `/api/v1/payments/withdrawals/${a.id}`);
    expect(list.body.data.withdrawals.map((w: { livemode: boolean }) => w.livemode)).toEqual([false]);
  });
});
