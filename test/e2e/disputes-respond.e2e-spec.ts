import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { ADMIN, fileDispute, paidExecute, PaidCall, resolveDispute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet, walletHeaders } from '../support/wallets';

const PRICE = 11_000n;

/**
 * The dispute routes over HTTP: who may file (the payer's proof), respond (the agent's wallet) and
 * resolve (the admin key), every refusal with its status and code and nothing changed by it, the
 * reads, and the evidence the platform attaches. The money of each outcome: test/medium/disputes-*.medium-spec.ts.
 */
describe('Disputes: routes (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  const agentWallet = newWallet();
  const otherAgentWallet = newWallet();
  let agentId: string;
  let otherAgentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    ds = api.app.get(DataSource);
    const register = async (wallet: typeof agentWallet) => {
      const res = await registerAgent(api, wallet, {
        endpoints: { execution: agentServer.url },
        capabilities: [capabilityPayload()],
      });
      expect(res.status).toBe(201);
      return res.body.data.id as string;
    };
    agentId = await register(agentWallet);
    otherAgentId = await register(otherAgentWallet);
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  const execute = (payer = newWallet()) => paidExecute(api, agentId, payer, PRICE);

  describe('POST /disputes/:id/respond', () => {
    let call: PaidCall;
    let disputeId: string;
    beforeAll(async () => {
      call = await execute();
      disputeId = (await fileDispute(api, call)).body.data.disputeId;
    });
    const respond = async (
      headers: Record<string, string>,
      body: Record<string, unknown> = { response: 'The text was already French' },
      id = disputeId,
    ) => api.request('POST', `/api/v1/disputes/${id}/respond`, { body, headers });

    it('401 without a signature, 403 for another wallet or another agent, 400 for a bad body; nothing recorded', async () => {
      expect((await respond({})).status).toBe(401);
      const forged = {
        ...(await walletHeaders(otherAgentWallet, agentId, `POST /api/v1/disputes/${disputeId}/respond`)),
        'X-Agent-Wallet': agentWallet.address,
      };
      expect((await respond(forged)).status).toBe(403);
      const otherAgent = await respond(
        await walletHeaders(otherAgentWallet, otherAgentId, `POST /api/v1/disputes/${disputeId}/respond`),
      );
      expect([otherAgent.status, otherAgent.body.error.code]).toEqual([403, 'FORBIDDEN']);
      expect(
        (
          await respond(await walletHeaders(agentWallet, agentId, `POST /api/v1/disputes/${disputeId}/respond`), {
            response: 'x'.repeat(2001),
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await respond(await walletHeaders(agentWallet, agentId, `POST /api/v1/disputes/${disputeId}/respond`), {
            response: '',
          })
        ).status,
      ).toBe(400);
      const unknown = await respond(
        await walletHeaders(agentWallet, agentId, 'POST /api/v1/disputes/dsp_doesnotexist00/respond'),
        undefined,
        'dsp_doesnotexist00',
      );
      expect([unknown.status, unknown.body.error.code]).toEqual([404, 'DISPUTE_NOT_FOUND']);
      expect((await api.request('GET', `/api/v1/disputes/${disputeId}`)).body.data).toMatchObject({
        status: 'pending',
        agentResponse: null,
      });
    });

    it("the disputed agent's wallet answers once (200 responded); a second answer is INVALID_STATE; a reused signature is refused", async () => {
      const headers = await walletHeaders(agentWallet, agentId, `POST /api/v1/disputes/${disputeId}/respond`);
      const res = await respond(headers, { response: 'The text was already French', evidence: 'log line 12' });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        disputeId,
        status: 'responded',
        agentResponse: 'The text was already French',
        respondedAt: expect.any(String),
      });
      const other = (await fileDispute(api, await execute())).body.data.disputeId;
      const reused = await respond(headers, undefined, other);
      // Signed for the answer to the first dispute: not valid for another (issue 29; it was refused as spent before).
      expect([reused.status, reused.body.error.code]).toEqual([403, 'FORBIDDEN']);
      expect((await api.request('GET', `/api/v1/disputes/${other}`)).body.data.status).toBe('pending');
      const again = await respond(
        await walletHeaders(agentWallet, agentId, `POST /api/v1/disputes/${disputeId}/respond`),
      );
      expect([again.status, again.body.error.code]).toEqual([409, 'INVALID_STATE']);
      expect((await api.request('GET', `/api/v1/disputes/${disputeId}`)).body.data).toMatchObject({
        status: 'responded',
        agentEvidence: 'log line 12',
      });
    });

    it('after the response window closed the answer is refused (INVALID_STATE)', async () => {
      const late = (await fileDispute(api, await execute())).body.data.disputeId;
      await ds.query(`UPDATE disputes SET respond_by = now() - interval '1 second' WHERE id = $1`, [late]);
      const res = await respond(
        await walletHeaders(agentWallet, agentId, `POST /api/v1/disputes/${late}/respond`),
        undefined,
        late,
      );
      expect([res.status, res.body.error.code]).toEqual([409, 'INVALID_STATE']);
    });
  });

  describe('POST /admin/disputes/:id/resolve', () => {
    it('needs the admin key (401 without, 403 wrong), a known outcome (400) and a known dispute (404); resolving twice is INVALID_STATE', async () => {
      const call = await execute();
      const id = (await fileDispute(api, call)).body.data.disputeId;
      const url = `/api/v1/admin/disputes/${id}/resolve`;
      expect((await api.request('POST', url, { body: { resolution: 'agent_wins' } })).status).toBe(401);
      expect(
        (await api.request('POST', url, { body: { resolution: 'agent_wins' }, headers: { 'X-Admin-Key': 'nope' } }))
          .status,
      ).toBe(403);
      expect((await resolveDispute(api, id, 'client_loses')).status).toBe(400);
      expect(
        (await api.request('POST', url, { body: { resolution: 'split', note: 'x'.repeat(1001) }, headers: ADMIN }))
          .status,
      ).toBe(400);
      // A non-boolean advance is refused before anything moves.
      expect(
        (await api.request('POST', url, { body: { resolution: 'client_wins', advance: 'yes' }, headers: ADMIN }))
          .status,
      ).toBe(400);
      expect((await resolveDispute(api, 'dsp_doesnotexist00', 'split')).body.error.code).toBe('DISPUTE_NOT_FOUND');
      expect((await api.request('GET', `/api/v1/disputes/${id}`)).body.data.status).toBe('pending');
      const first = await resolveDispute(api, id, 'agent_wins', 'Output matched the request');
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({
        status: 'resolved',
        resolution: {
          outcome: 'agent_wins',
          note: 'Output matched the request',
          refundAmount: '0.000000',
          releasedAmount: '0.009500',
          resolvedBy: 'admin',
        },
        resolvedAt: expect.any(String),
      });
      const second = await resolveDispute(api, id, 'client_wins');
      expect([second.status, second.body.error.code]).toEqual([409, 'INVALID_STATE']);
      const [event] = await ds.query(
        `SELECT data FROM outbox_events WHERE type = 'dispute.resolved' AND data->>'disputeId' = $1`,
        [id],
      );
      expect(event.data).toEqual({ disputeId: id, resolution: 'agent_wins', reputationDelta: 2 });
    });
  });

  describe('reads', () => {
    it("GET /disputes/agent/:agentId: the agent's disputes newest first, status filter, paging and total; unknown agent 404", async () => {
      const res = await api.request('GET', `/api/v1/disputes/agent/${agentId}?limit=100`);
      expect(res.status).toBe(200);
      const all = res.body.data;
      const rows = await ds.query(
        `SELECT id, status FROM disputes WHERE agent_id = $1 ORDER BY created_at DESC, id DESC`,
        [agentId],
      );
      expect(all.total).toBe(rows.length);
      expect(all.disputes.map((d: { id: string }) => d.id)).toEqual(rows.map((r: { id: string }) => r.id));
      expect(Object.keys(all.disputes[0]).sort()).toEqual([
        'agentId',
        'createdAt',
        'id',
        'reason',
        'respondBy',
        'status',
        'transactionId',
      ]);
      for (const status of ['pending', 'responded', 'resolved']) {
        const page = (await api.request('GET', `/api/v1/disputes/agent/${agentId}?status=${status}&limit=1&offset=0`))
          .body.data;
        expect(page.total).toBe(rows.filter((r: { status: string }) => r.status === status).length);
        expect(page.disputes.length).toBe(Math.min(1, page.total));
      }
      const second = (await api.request('GET', `/api/v1/disputes/agent/${agentId}?limit=1&offset=1`)).body.data;
      expect(second.disputes[0].id).toBe(rows[1].id);
      expect((await api.request('GET', `/api/v1/disputes/agent/${agentId}?status=open`)).status).toBe(400);
      expect((await api.request('GET', `/api/v1/disputes/agent/${agentId}?limit=101`)).status).toBe(400);
      expect(
        (await api.request('GET', `/api/v1/disputes/agent/00000000-0000-4000-8000-000000000000`)).body.error.code,
      ).toBe('AGENT_NOT_FOUND');
      expect((await api.request('GET', `/api/v1/disputes/agent/${otherAgentId}`)).body.data).toEqual({
        disputes: [],
        total: 0,
      });
    });

    it("analytics count the agent's disputes: total, won, lost, pending (a split is neither) and the rate", async () => {
      const rows = await ds.query(
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE resolution->>'outcome' = 'agent_wins')::int AS won,
                count(*) FILTER (WHERE resolution->>'outcome' = 'client_wins')::int AS lost, count(*) FILTER (WHERE status <> 'resolved')::int AS pending
           FROM disputes WHERE agent_id = $1`,
        [agentId],
      );
      const executions = (
        await ds.query(`SELECT count(*)::int AS n FROM transactions WHERE providing_agent_id = $1`, [agentId])
      )[0].n;
      for (const period of ['day', 'all']) {
        const a = (await api.request('GET', `/api/v1/analytics/agent/${agentId}?period=${period}`)).body.data;
        expect(a.disputes).toEqual({ ...rows[0], rate: Math.round((rows[0].total * 10_000) / executions) / 100 });
      }
      expect(rows[0]).toMatchObject({ won: 1, lost: 0 });
    });
  });
});
