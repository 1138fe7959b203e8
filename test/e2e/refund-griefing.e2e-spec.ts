import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS, ProcessRefund } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { ADMIN } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

/**
 * Gas and dust griefing (issue 28, item 5; resolutions §5, §6) over HTTP: the admin's retry route.
 * The money (a failed chain root keeps the platform fee, the dust floor, failed refunds sent again):
 * test/medium/refunds-dust.medium-spec.ts.
 */
describe('Refunds that cost more than they return (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let agentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, newWallet(), {
      endpoints: { execution: agentServer.url },
      capabilities: [
        capabilityPayload({ inputSchema: { type: 'object' } }),
        capabilityPayload({
          id: 'quote',
          name: 'quote',
          inputSchema: { type: 'object' },
          pricing: { model: 'dynamic', basePrice: '0.01', maxPrice: '0.2', currency: 'USDC' },
        }),
      ],
    });
    agentId = res.body.data.id;
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  const execute = async (payer: Wallet, amount: bigint, body: Record<string, unknown>) => {
    const pay = await x402Header(payer, { amount, payTo: api.config.platformWallet });
    return api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, ...body },
      headers: { [pay.name]: pay.value },
    });
  };
  const invariants = async () =>
    (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
      (r) => r.violations.length,
    );

  it('the admin retry route: 401 without the key, the refund sent (200, test money), 409 once sent, 404 and 400', async () => {
    const payer = newWallet();
    const small = await execute(payer, 201_000n, { capabilityId: 'quote', input: { text: 'q', cost: '0.1990' } });
    expect(small.body.data.refund).toMatchObject({ amount: '0.001000', status: 'held' });
    const id = small.body.data.refund.refundId as string;
    expect((await api.request('POST', `/api/v1/admin/refunds/${id}/retry`)).status).toBe(401);
    const sent = await api.request('POST', `/api/v1/admin/refunds/${id}/retry`, { headers: ADMIN });
    expect([sent.status, sent.body.data]).toEqual([
      200,
      { refundId: id, amount: '0.001000', status: 'pending', txHash: null, livemode: false },
    ]);
    expect(await api.app.get(ProcessRefund).execute(id)).toBe('completed');
    const again = await api.request('POST', `/api/v1/admin/refunds/${id}/retry`, { headers: ADMIN });
    expect([again.status, again.body.error.code]).toEqual([409, 'INVALID_STATE']);
    expect(
      (await api.request('POST', `/api/v1/admin/refunds/rfd_doesnotexist0000/retry`, { headers: ADMIN })).status,
    ).toBe(404);
    expect((await api.request('POST', `/api/v1/admin/refunds/not-an-id/retry`, { headers: ADMIN })).status).toBe(400);
    expect(await invariants()).toEqual([]);
  });
});
