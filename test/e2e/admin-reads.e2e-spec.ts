import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { OutboxService } from '@app/outbox';
import { DeliverAttempt, EventFanout } from '@app/webhooks';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { ADMIN, fileDispute, paidExecute, PaidCall, resolveDispute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { JsonReceiver } from '../support/json-receiver';
import { newWallet, walletHeaders } from '../support/wallets';

const PLATFORM_FEE = 1_000n;
const iso = (d: Date | string) => new Date(d).toISOString();

/**
 * The operator's reads (GET /admin/...): each over states made the way the platform makes them (a
 * filed, a responded and a resolved dispute; an admin suspension; a withdrawal the worker has not
 * sent; a refund; a subscription failed by a 410), asserted field by field. The admin key, bad
 * queries and the logs: admin-reads-access; invariants and queues: admin-reads-ops.
 */
describe('Admin reads (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let receiver: JsonReceiver;
  const richWallet = newWallet();
  const smallWallet = newWallet();
  let richId: string;
  let smallId: string;
  let withdrawalId: string;
  let filed: { call: PaidCall; id: string };
  let responded: { call: PaidCall; id: string };
  let resolvedId: string;
  let ts = Date.now();

  async function newAgent(wallet: Wallet, basePrice: string, score?: number): Promise<string> {
    const res = await registerAgent(api, wallet, {
      endpoints: { execution: agentServer.url },
      capabilities: [capabilityPayload({ pricing: { model: 'per-request', basePrice, currency: 'USDC' } })],
    });
    expect(res.status).toBe(201);
    if (score !== undefined)
      await ds.query(`UPDATE agents SET reputation_score = $2 WHERE id = $1`, [res.body.data.id, score]);
    return res.body.data.id;
  }
  const get = (path: string, headers: Record<string, string> = ADMIN) => api.request('GET', path, { headers });

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    receiver = await new JsonReceiver().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    ds = api.app.get(DataSource);

    // A 2.00 agent at 90 (instant release) that withdrew 1.50 of its 1.90 earnings, then is disputed.
    richId = await newAgent(richWallet, '2.000000', 90);
    const richCall = await paidExecute(api, richId, newWallet(), PLATFORM_FEE + 2_000_000n);
    const wd = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId: richId, amount: '1.500000', destinationWallet: newWallet().address },
      headers: await walletHeaders(richWallet, richId, 'POST /api/v1/payments/withdraw', ++ts),
    });
    expect(wd.status).toBe(201);
    withdrawalId = wd.body.data.withdrawalId;
    const first = await fileDispute(api, richCall, { evidence: 'screenshot link' });
    expect(first.status).toBe(201);
    filed = { call: richCall, id: first.body.data.disputeId };

    // A 0.01 agent: one dispute answered by the agent, one resolved (its refund is not sent: no worker here).
    smallId = await newAgent(smallWallet, '0.010000');
    const call2 = await paidExecute(api, smallId, newWallet(), PLATFORM_FEE + 10_000n);
    const second = (await fileDispute(api, call2)).body.data.disputeId as string;
    const answer = await api.request('POST', `/api/v1/disputes/${second}/respond`, {
      body: { response: 'The text was already French', evidence: 'the output' },
      headers: await walletHeaders(smallWallet, smallId, `POST /api/v1/disputes/${second}/respond`, ++ts),
    });
    expect(answer.status).toBe(200);
    responded = { call: call2, id: second };
    const call3 = await paidExecute(api, smallId, newWallet(), PLATFORM_FEE + 10_000n);
    resolvedId = (await fileDispute(api, call3)).body.data.disputeId;
    expect((await resolveDispute(api, resolvedId, 'client_wins')).status).toBe(200);
  });
  afterAll(async () => {
    await api?.close();
    await agentServer?.stop();
    await receiver?.stop();
  });

  it('GET /admin/disputes: the filed and the responded disputes, oldest first, with both sides and the advance', async () => {
    const res = await get('/api/v1/admin/disputes');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const { disputes, total } = res.body.data;
    expect(total).toBe(2);
    expect(disputes.map((d: { id: string }) => d.id)).toEqual([filed.id, responded.id]);
    // The same resource as GET /disputes/:id, plus what the decision moves.
    for (const d of disputes) {
      const { agentFee: _fee, agentEarnings: _earnings, advanceable: _advanceable, ...resource } = d;
      expect(resource).toEqual((await api.request('GET', `/api/v1/disputes/${d.id}`)).body.data);
    }
    const [rich, small] = disputes;
    expect(rich).toMatchObject({
      transactionId: filed.call.transactionId,
      clientId: filed.call.payer.address.toLowerCase(),
      agentId: richId,
      status: 'pending',
      reason: 'The translation was empty',
      evidence: 'screenshot link',
      agentResponse: null,
      agentEvidence: null,
      respondedAt: null,
      resolution: null,
      resolvedAt: null,
      frozenAmount: '0.400000',
      advancedAmount: '0.000000',
      agentFee: '2.000000',
      agentEarnings: '1.900000',
      // client_wins: 1.90 of earnings, 0.40 frozen; split: 0.95 of earnings (half the fee less the 5% cut).
      advanceable: { client_wins: '1.500000', split: '0.550000' },
      livemode: false,
    });
    const [row] = await ds.query(`SELECT created_at, respond_by FROM disputes WHERE id = $1`, [filed.id]);
    expect([rich.createdAt, rich.respondBy]).toEqual([iso(row.created_at), iso(row.respond_by)]);
    expect(small).toMatchObject({
      transactionId: responded.call.transactionId,
      agentId: smallId,
      status: 'responded',
      evidence: null,
      agentResponse: 'The text was already French',
      agentEvidence: 'the output',
      respondedAt: expect.any(String),
      frozenAmount: '0.009500',
      agentFee: '0.010000',
      agentEarnings: '0.009500',
      advanceable: { client_wins: '0.000000', split: '0.000000' },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/evidenceKey/);

    const page = await get('/api/v1/admin/disputes?limit=1&offset=1');
    expect(page.body.data.total).toBe(2);
    expect(page.body.data.disputes.map((d: { id: string }) => d.id)).toEqual([responded.id]);
  });

  it('GET /admin/agents/suspended: who suspended, when and why, newest first; gone once reinstated', async () => {
    expect((await get('/api/v1/admin/agents/suspended')).body.data).toEqual({ agents: [], total: 0 });
    const before = Date.now();
    for (const id of [smallId, richId]) {
      const res = await api.request('POST', `/api/v1/admin/agents/${id}/suspend`, {
        body: id === richId ? { reason: 'terms violation' } : {},
        headers: ADMIN,
      });
      expect(res.status).toBe(200);
    }
    const res = await get('/api/v1/admin/agents/suspended');
    expect(res.status).toBe(200);
    const rows = await ds.query(
      `SELECT id, name, wallet, reputation_score, suspended_at, updated_at FROM agents WHERE id = ANY($1)`,
      [[richId, smallId]],
    );
    const db = (id: string) => rows.find((r: { id: string }) => r.id === id);
    expect(res.body.data).toEqual({
      agents: [richId, smallId].map((id) => ({
        id,
        name: db(id).name,
        wallet: db(id).wallet,
        reputationScore: db(id).reputation_score,
        suspendedBy: 'admin',
        suspendedReason: id === richId ? 'terms violation' : null,
        suspendedAt: iso(db(id).suspended_at),
        updatedAt: iso(db(id).updated_at),
      })),
      total: 2,
    });
    for (const a of res.body.data.agents) expect(Date.parse(a.suspendedAt)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(res.body.data.agents[0].suspendedAt)).toBeGreaterThanOrEqual(
      Date.parse(res.body.data.agents[1].suspendedAt),
    );

    expect((await api.request('POST', `/api/v1/admin/agents/${smallId}/reinstate`, { headers: ADMIN })).status).toBe(
      200,
    );
    expect((await ds.query(`SELECT suspended_at FROM agents WHERE id = $1`, [smallId]))[0].suspended_at).toBeNull();
    const after = (await get('/api/v1/admin/agents/suspended?limit=5')).body.data;
    expect([after.total, after.agents.map((a: { id: string }) => a.id)]).toEqual([1, [richId]]);
    expect((await api.request('POST', `/api/v1/admin/agents/${richId}/reinstate`, { headers: ADMIN })).status).toBe(
      200,
    );
  });

  it('GET /admin/pending: the withdrawal and the refund not sent, oldest first, with their age', async () => {
    // A held dust refund (below the floor, waiting for the payer's next one): not due, not listed.
    await ds.query(
      `INSERT INTO refunds (id, wallet, amount, reason, status, created_at)
       VALUES ('rfd_heldDust00001', '0x1111111111111111111111111111111111111111', 5000, 'variable_price_unused', 'held',
               now() - interval '30 days')`,
    );
    const started = Date.now();
    const res = await get('/api/v1/admin/pending');
    expect(res.status).toBe(200);
    const wds = await ds.query(`SELECT id, amount::text, status, created_at FROM withdrawals WHERE id = $1`, [
      withdrawalId,
    ]);
    const refunds = await ds.query(
      `SELECT id, amount::text, status, created_at, error FROM refunds
        WHERE status IN ('pending', 'processing', 'failed') ORDER BY created_at, id`,
    );
    expect(refunds.map((r: { id: string }) => r.id)).toContain(`rfd_${resolvedId.slice('dsp_'.length)}`);
    expect(res.body.data.items.map((i: { id: string }) => i.id)).not.toContain('rfd_heldDust00001');
    const micros = (s: string) => (Number(s) / 1e6).toFixed(6);
    const expected = [
      ...wds.map((w: any) => ({ kind: 'withdrawal', ...w, error: null })),
      ...refunds.map((r: any) => ({ kind: 'refund', ...r })),
    ]
      .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id))
      .map((r) => ({
        kind: r.kind,
        id: r.id,
        amount: micros(r.amount),
        status: r.status,
        createdAt: iso(r.created_at),
        ageMs: expect.any(Number),
        error: r.error,
      }));
    expect(res.body.data).toEqual({
      items: expected,
      totals: { withdrawal: 1, refund: refunds.length, settlement: 0, chain_tx: 0 },
    });
    expect(res.body.data.items.find((i: { id: string }) => i.id === withdrawalId)).toMatchObject({
      amount: '1.500000',
      status: 'pending',
    });
    for (const item of res.body.data.items) {
      const age = started - Date.parse(item.createdAt);
      expect(item.ageMs).toBeGreaterThanOrEqual(age - 1_000);
      expect(item.ageMs).toBeLessThanOrEqual(Date.now() - Date.parse(item.createdAt) + 1_000);
    }

    const one = (await get('/api/v1/admin/pending?kind=withdrawal&limit=1')).body.data;
    expect(one).toEqual({ items: [expected.find((e) => e.id === withdrawalId)], totals: { withdrawal: 1 } });
  });

  it('GET /admin/webhooks/failed: a subscription failed by a 410, with its failed attempt, never its secret', async () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const sub = await api.request('POST', '/api/v1/webhooks', {
      body: { agentId: smallId, url: receiver.url, events: ['escrow.released'], secret },
      headers: await walletHeaders(smallWallet, smallId, 'POST /api/v1/webhooks', ++ts),
    });
    expect(sub.status).toBe(201);
    const id = sub.body.data.webhookId as string;
    expect((await get('/api/v1/admin/webhooks/failed')).body.data).toEqual({ webhooks: [], total: 0 });
    receiver.status = 410;
    const events = await ds.transaction((m) =>
      api.app.get(OutboxService).record(m, 'escrow.released', smallId, { holdId: 'esc_test', amount: '0.009500' }),
    );
    await api.app.get(EventFanout).execute(events);
    const [delivery] = await ds.query(`SELECT id FROM webhook_deliveries WHERE subscription_id = $1`, [id]);
    expect(await api.app.get(DeliverAttempt).execute(delivery.id)).toBe('failed');

    const res = await get('/api/v1/admin/webhooks/failed');
    expect(res.status).toBe(200);
    const [row] = await ds.query(
      `SELECT s.failure_reason, s.status_changed_at, s.created_at, d.error, d.attempted_at
         FROM webhook_subscriptions s JOIN webhook_deliveries d ON d.subscription_id = s.id WHERE s.id = $1`,
      [id],
    );
    expect(res.body.data).toEqual({
      webhooks: [
        {
          id,
          agentId: smallId,
          url: receiver.url,
          events: ['escrow.released'],
          failureReason: row.failure_reason,
          disabledAt: iso(row.status_changed_at),
          failedAttempts: 1,
          lastError: row.error,
          lastResponseStatus: 410,
          lastAttemptAt: iso(row.attempted_at),
          createdAt: iso(row.created_at),
        },
      ],
      total: 1,
    });
    expect(row.failure_reason).toEqual(expect.any(String));
    expect(JSON.stringify(res.body)).not.toContain(secret);
    expect(JSON.stringify(res.body)).not.toMatch(/secret/i);
  });
});
