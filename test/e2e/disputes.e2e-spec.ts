import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { clientSignature, fileDispute, paidExecute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
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
    await register(otherAgentWallet); // a second agent, as the respond and reads specs have
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
    it('the payer with the original payment header files: 201 pending, respondBy 48 h later, the transaction disputed, dispute.filed (weighted model: an accusation, 0)', async () => {
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
        // Local settlement: the header was never published, so it proves the payer.
        verified: true,
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
      // The weighted model (the default) lands a filing's penalty with the loss (resolutions §7, issue 52).
      expect(event).toEqual({ type: 'dispute.filed', delta: 0, refId: d.disputeId });
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
          verified: true,
        },
      });
      expect((await fileDispute(api, call)).body.error.code).toBe('DISPUTE_EXISTS');
    });

    it('the payer with X-Client-Wallet + X-Client-Signature over the transaction id files too; the signed message is single use', async () => {
      const call = await execute();
      const headers = await clientSignature(call.payer, call.transactionId);
      const filed = await fileDispute(api, call, {}, headers);
      expect(filed.status).toBe(201);
      // Spent in the filing's own transaction.
      const spent = async () =>
        (
          await ds.query(`SELECT count(*)::int AS n FROM used_auth_messages WHERE message_key LIKE $1`, [
            `client:${call.transactionId}:%`,
          ])
        )[0].n as number;
      expect(await spent()).toBe(1);
      const again = await fileDispute(api, await execute(call.payer), {}, headers);
      expect([again.status, again.body.error.code]).toEqual([403, 'FORBIDDEN']); // made for the first transaction
      const count = await disputeCount();
      const replay = await fileDispute(api, call, {}, headers);
      expect([replay.status, replay.body.error.code]).toEqual([409, 'DISPUTE_EXISTS']);
      // The dispute answers the replay first; with it gone (its row and the transaction's mark taken back, as
      // before the filing), the spent message alone refuses a second use, and files nothing.
      await ds.query(`DELETE FROM disputes WHERE id = $1`, [filed.body.data.disputeId]);
      await ds.query(`UPDATE transactions SET status = 'completed', dispute_id = NULL WHERE id = $1`, [
        call.transactionId,
      ]);
      const second = await fileDispute(api, call, {}, headers);
      expect([second.status, second.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
      expect(second.body.error.message).toMatch(/already been used/);
      expect([await disputeCount(), await txStatus(call.transactionId), await spent()]).toEqual([
        count - 1,
        { status: 'completed', disputeId: null },
        1,
      ]);
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
});
