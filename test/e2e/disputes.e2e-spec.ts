import { createHash, createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { canonicalJson } from '@app/json-schema';
import { verifyAgoraSignature } from '@agora/sdk';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { ADMIN, clientSignature, fileDispute, paidExecute, PaidCall, resolveDispute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n; // 0.001 platform fee + 0.010 agent fee
const DAY_S = 86_400;

/**
 * The dispute routes over HTTP: who may file (the payer's proof), respond (the agent's wallet) and
 * resolve (the admin key), every refusal with its status and code and nothing changed by it, the
 * reads, and the evidence the platform attaches. The money of each outcome: disputes-money.e2e-spec.ts.
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
  const disputeCount = async () => (await ds.query(`SELECT count(*)::int AS n FROM disputes`))[0].n as number;
  const txStatus = async (id: string) =>
    (await ds.query(`SELECT status, dispute_id AS "disputeId" FROM transactions WHERE id = $1`, [id]))[0];

  describe('POST /disputes', () => {
    it('the payer with the original payment header files: 201 pending, respondBy 48 h later, the transaction disputed, reputation -5, dispute.filed', async () => {
      const call = await execute();
      const res = await fileDispute(api, call, { reason: 'Wrong language', evidence: 'Asked for French, got Spanish' });
      expect(res.status).toBe(201);
      const d = res.body.data;
      expect(d).toEqual({
        disputeId: expect.stringMatching(/^dsp_/),
        transactionId: call.transactionId,
        status: 'pending',
        reason: 'Wrong language',
        createdAt: expect.any(String),
        respondBy: expect.any(String),
        evidenceKey: expect.stringMatching(/^[0-9a-f]{64}$/),
        livemode: false,
      });
      expect(Date.parse(d.respondBy) - Date.parse(d.createdAt)).toBe(172_800_000);
      expect(await txStatus(call.transactionId)).toEqual({ status: 'disputed', disputeId: d.disputeId });
      const tx = (await api.request('GET', `/api/v1/payments/tx/${call.transactionId}`)).body.data;
      expect(tx).toMatchObject({ status: 'disputed', dispute_id: d.disputeId });
      const [event] = await ds.query(
        `SELECT type, delta, ref_id AS "refId" FROM reputation_events WHERE agent_id = $1 AND type LIKE 'dispute.%'`,
        [agentId],
      );
      expect(event).toEqual({ type: 'dispute.filed', delta: -5, refId: d.disputeId });
      const [outbox] = await ds.query(
        `SELECT agent_id AS "agentId", data FROM outbox_events WHERE type = 'dispute.filed'`,
      );
      expect(outbox).toEqual({
        agentId,
        data: {
          disputeId: d.disputeId,
          transactionId: call.transactionId,
          reason: 'Wrong language',
          respondBy: d.respondBy,
        },
      });
      expect((await fileDispute(api, call)).body.error.code).toBe('DISPUTE_EXISTS');
    });

    it('the payer with X-Client-Wallet + X-Client-Signature over the transaction id files too; the signed message is single use', async () => {
      const call = await execute();
      const headers = await clientSignature(call.payer, call.transactionId);
      expect((await fileDispute(api, call, {}, headers)).status).toBe(201);
      const again = await fileDispute(api, await execute(call.payer), {}, headers);
      expect([again.status, again.body.error.code]).toEqual([403, 'FORBIDDEN']); // made for the first transaction
    });

    it('refuses without proof (401), with a proof that is not the payer for this transaction (403), and creates nothing', async () => {
      const call = await execute();
      const stranger = newWallet();
      const other = await execute(); // another payer's payment
      const ts = Date.now();
      const cases: [string, Record<string, string>, number, string][] = [
        ['no proof', {}, 401, 'UNAUTHORIZED'],
        ['another payment header', { [other.payment.name]: other.payment.value }, 403, 'FORBIDDEN'],
        [
          'a fresh header by the payer that did not pay this',
          { 'X-PAYMENT': (await x402Header(call.payer, { amount: PRICE, payTo: api.config.platformWallet })).value },
          403,
          'FORBIDDEN',
        ],
        [
          "another wallet's signature, claiming itself",
          await clientSignature(stranger, call.transactionId),
          403,
          'FORBIDDEN',
        ],
        [
          "another wallet's signature, claiming the payer",
          await clientSignature(stranger, call.transactionId, { claimed: call.payer.address }),
          403,
          'FORBIDDEN',
        ],
        [
          "the payer's signature for another transaction",
          await clientSignature(call.payer, other.transactionId),
          403,
          'FORBIDDEN',
        ],
        [
          'a signature without the wallet',
          { 'X-Client-Signature': (await clientSignature(call.payer, call.transactionId))['X-Client-Signature'] },
          401,
          'UNAUTHORIZED',
        ],
        ['the wallet without a signature', { 'X-Client-Wallet': call.payer.address }, 401, 'UNAUTHORIZED'],
        [
          'a malformed signature',
          {
            'X-Client-Wallet': call.payer.address,
            'X-Client-Signature': `agora-auth:${call.transactionId}:${ts}:sig:0x1234`,
          },
          401,
          'UNAUTHORIZED',
        ],
        [
          'an expired signature',
          await clientSignature(call.payer, call.transactionId, { timestampMs: ts - 301_000 }),
          401,
          'UNAUTHORIZED',
        ],
      ];
      for (const [what, headers, status, code] of cases) {
        const res = await fileDispute(api, call, {}, headers);
        expect({ what, status: res.status, code: res.body.error?.code }).toEqual({ what, status, code });
      }
      expect(await txStatus(call.transactionId)).toEqual({ status: 'completed', disputeId: null });
      expect(
        (await ds.query(`SELECT count(*)::int AS n FROM disputes WHERE transaction_id = $1`, [call.transactionId]))[0]
          .n,
      ).toBe(0);
    });

    it('validates the body (400, each field named), and an unknown transaction is 404', async () => {
      const call = await execute();
      const before = await disputeCount();
      const bad: [Record<string, unknown>, string][] = [
        [{ reason: undefined }, 'reason'],
        [{ reason: '' }, 'reason'],
        [{ reason: 'x'.repeat(1001) }, 'reason'],
        [{ reason: 42 }, 'reason'],
        [{ evidence: 'x'.repeat(5001) }, 'evidence'],
        [{ transactionId: 'req_abcdefghijkl' }, 'transactionId'],
        [{ amount: '1.00' }, 'amount'],
      ];
      for (const [body, field] of bad) {
        const res = await fileDispute(api, call, body);
        expect([
          res.status,
          res.body.error.code,
          res.body.error.details.errors.map((e: { field: string }) => e.field),
        ]).toEqual([400, 'VALIDATION_ERROR', [field]]);
      }
      const nul = await api.request('POST', '/api/v1/disputes', {
        raw: `{"transactionId":"${call.transactionId}","reason":"bad\\u0000"}`,
        headers: { 'content-type': 'application/json', [call.payment.name]: call.payment.value },
      });
      expect(nul.status).toBe(400);
      expect((await fileDispute(api, call, { reason: 'x'.repeat(1000) })).status).toBe(201); // the limit itself is fine
      const unknown = await fileDispute(api, { ...call, transactionId: 'tx_doesnotexist00' });
      expect([unknown.status, unknown.body.error.code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
      expect(await disputeCount()).toBe(before + 1);
    });

    it('DISPUTE_WINDOW_CLOSED (409) more than 7 days after the transaction; just inside, it is accepted', async () => {
      const old = await execute();
      const recent = await execute();
      await ds.query(`UPDATE transactions SET completed_at = now() - make_interval(secs => $2) WHERE id = $1`, [
        old.transactionId,
        7 * DAY_S + 60,
      ]);
      await ds.query(`UPDATE transactions SET completed_at = now() - make_interval(secs => $2) WHERE id = $1`, [
        recent.transactionId,
        7 * DAY_S - 60,
      ]);
      const closed = await fileDispute(api, old);
      expect([closed.status, closed.body.error.code]).toEqual([409, 'DISPUTE_WINDOW_CLOSED']);
      expect(await txStatus(old.transactionId)).toEqual({ status: 'completed', disputeId: null });
      expect((await fileDispute(api, recent)).status).toBe(201);
    });
  });

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
    it('GET /disputes/:id: the Dispute resource with the evidence the platform holds, signed by the platform', async () => {
      const call = await execute(newWallet());
      const filed = (await fileDispute(api, call, { evidence: 'screenshot link' })).body.data;
      const id = filed.disputeId;
      expect(filed.evidenceKey).toMatch(/^[0-9a-f]{64}$/);
      const res = await api.request('GET', `/api/v1/disputes/${id}`);
      expect(res.status).toBe(200);
      const d = res.body.data;
      expect(d).toMatchObject({
        id,
        transactionId: call.transactionId,
        clientId: call.payer.address.toLowerCase(),
        agentId,
        status: 'pending',
        evidence: 'screenshot link',
        agentResponse: null,
        resolution: null,
        resolvedAt: null,
        frozenAmount: '0.009500',
        advancedAmount: '0.000000',
      });
      const [exec] = await ds.query(`SELECT input, output FROM executions WHERE id = $1`, [call.requestId]);
      const [payment] = await ds.query(
        `SELECT tx_hash FROM payments p JOIN transactions t ON t.payment_id = p.id WHERE t.id = $1`,
        [call.transactionId],
      );
      // Issue 29: keyed hashes, checkable by the parties only (the payer has the key from its filing).
      const sha = (v: unknown) =>
        createHmac('sha256', Buffer.from(filed.evidenceKey, 'hex'))
          .update(createHash('sha256').update(canonicalJson(v)).digest('hex'))
          .digest('hex');
      const facts = d.platformEvidence.facts;
      expect(facts.outputHash).not.toBe(createHash('sha256').update(canonicalJson(exec.output)).digest('hex'));
      expect(JSON.stringify(d)).not.toContain(filed.evidenceKey);
      expect(facts).toMatchObject({
        transactionId: call.transactionId,
        requestId: call.requestId,
        capabilityId: 'translate',
        status: 'completed',
        inputHash: sha({ text: 'bonjour' }),
        outputHash: sha(exec.output),
        agentError: null,
        cost: { agentFee: '0.010000', platformFee: '0.001000', pricingModel: 'per-request' },
        settlement: {
          status: 'settled',
          txHash: payment.tx_hash,
          network: 'base-sepolia',
          payer: call.payer.address.toLowerCase(),
        },
      });
      expect(exec.input).toEqual({ text: 'bonjour' });
      const key = (await api.request('GET', '/api/v1/platform/keys')).body.data.keys[0];
      expect(d.platformEvidence.attestation.keyId).toBe(key.kid);
      const attested = (f: unknown, purpose: 'attestation' | 'call' = 'attestation', subject = [call.transactionId]) =>
        verifyAgoraSignature(
          d.platformEvidence.attestation.signature,
          purpose,
          subject,
          canonicalJson(f),
          [key.publicKey],
          Infinity,
        );
      expect(attested(facts)).toBe(true);
      expect(attested({ ...facts, agentError: 'forged' })).toBe(false);
      // Labelled as an attestation: never a call to an agent.
      expect(attested(facts, 'call', [agentId, call.requestId])).toBe(false);
      expect((await api.request('GET', '/api/v1/disputes/dsp_doesnotexist00')).status).toBe(404);
      expect((await api.request('GET', '/api/v1/disputes/not-an-id')).status).toBe(400);
      // The agent's wallet gets the same key; another agent's wallet and an unsigned read do not.
      const keyUrl = `/api/v1/disputes/${id}/evidence-key`;
      const agentRead = await api.request('GET', keyUrl, { headers: await walletHeaders(agentWallet, agentId, null) });
      expect(agentRead.status).toBe(200);
      expect(agentRead.body.data).toEqual({
        disputeId: id,
        transactionId: call.transactionId,
        evidenceKey: filed.evidenceKey,
      });
      const other = await api.request('GET', keyUrl, {
        headers: await walletHeaders(otherAgentWallet, otherAgentId, null),
      });
      expect([other.status, other.body.error.code]).toEqual([403, 'FORBIDDEN']);
      expect(JSON.stringify(other.body)).not.toContain(filed.evidenceKey);
      expect((await api.request('GET', keyUrl)).status).toBe(401);
    });

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
