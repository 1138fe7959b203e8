import { DataSource } from 'typeorm';
import { AgoraClient } from '@agora/sdk';
import { ResolveOverdueDispute } from '@app/disputes';
import { startChain, LocalChain } from '../../scripts/local-chain';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { clientSignature, fileDispute, paidExecute, PaidCall, resolveDispute } from '../support/disputes';
import { evmEnv } from '../support/evm-env';
import { REGISTRATION_FEE_MICROS, registerAgent } from '../support/factories';
import { invariantViolations } from '../support/disputes-worker';
import { waitFor } from '../support/processes';
import { authorizationsOnChain, rebuildHeader } from '../support/rebuilt-headers';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n; // translate: 0.01 to the agent, 0.001 to the platform
const WINDOW_S = 3;
const ENV = {
  OUTBOUND_ALLOW_HTTP: 'true',
  OUTBOUND_ALLOW_PRIVATE: 'true',
  DISPUTE_RESPONSE_WINDOW_S: String(WINDOW_S),
};

/** The response window of `respondBy` has closed by the API's clock (the system clock). */
const windowClosed = (respondBy: string) =>
  waitFor(async () => Date.now() > new Date(respondBy).getTime() + 100, `the window closing at ${respondBy}`);

/**
 * Issue 52, a payer's dispute filed by a stranger. In evm mode a standard client's payment header is a pure
 * function of the public transferWithAuthorization calldata, so once a payment settles anyone can rebuild it and
 * file a dispute in the payer's name: before, that froze the agent's earnings, cost it reputation, handed the
 * stranger the evidence key, and refunded the sale for free when the agent did not answer within 48 h. Now such a
 * filing is unverified: 201 with the contract's shape, but no reputation, no evidence key, no automatic
 * client_wins, until the payer's signature confirms it. Local settlement (headers never published) is unchanged.
 */
describe('abuse: a dispute filed with a payment header rebuilt from chain data (e2e)', () => {
  describe('evm settlement', () => {
    let chain: LocalChain;
    let api: ApiHarness;
    let ds: DataSource;
    let agentServer: TestAgentServer;
    let agentId: string;
    const payer = newWallet();
    const stranger = newWallet();

    beforeAll(async () => {
      chain = await startChain();
      agentServer = await new TestAgentServer().start();
      api = await startApi({ ...evmEnv(chain), ...ENV });
      ds = api.app.get(DataSource);
      const owner = newWallet();
      await chain.mint(owner.address, REGISTRATION_FEE_MICROS);
      const registered = await registerAgent(
        api,
        owner,
        { endpoints: { execution: agentServer.url } },
        { asset: chain.usdcAddress },
      );
      expect(registered.status).toBe(201);
      agentId = registered.body.data.id;
      await chain.mint(payer.address, 4n * PRICE);
    }, 120_000);
    afterAll(async () => {
      await api?.close();
      await agentServer?.stop();
      await chain?.stop();
    });

    async function paid(): Promise<PaidCall> {
      const payment = await x402Header(payer, {
        amount: PRICE,
        payTo: chain.platform.address,
        asset: chain.usdcAddress,
      });
      const res = await api.request('POST', '/api/v1/execute', {
        body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'a sale' } },
        headers: { [payment.name]: payment.value },
      });
      expect([res.status, res.body.data.settlement.status]).toEqual([200, 'settled']);
      return { transactionId: res.body.data.transactionId, requestId: res.body.data.requestId, payment, payer };
    }
    const score = async () => (await api.request('GET', `/api/v1/reputation/${agentId}`)).body.data.score as number;
    const dispute = async (id: string) => (await api.request('GET', `/api/v1/disputes/${id}`)).body.data;
    const account = async (kind: string) =>
      BigInt(
        (
          await ds.query(`SELECT coalesce((SELECT balance FROM ledger_accounts WHERE code = $1), 0)::text AS b`, [
            `agent:${agentId}:${kind}`,
          ])
        )[0].b,
      );
    /** What the agent holds: escrow plus available (the frozen part apart). */
    const held = async () => (await account('escrow')) + (await account('available'));
    const postings = async (disputeId: string) =>
      (await ds.query(`SELECT code FROM ledger_transactions WHERE ref_id = $1 ORDER BY code`, [disputeId])).map(
        (r: { code: string }) => r.code,
      );
    const refunds = async () =>
      Number(
        (await ds.query(`SELECT count(*)::int AS n FROM refunds WHERE lower(wallet) = lower($1)`, [payer.address]))[0]
          .n,
      );

    it("a stranger's filing with a rebuilt header is unverified: no reputation, no evidence key, no refund at the deadline; the payer's signature confirms it", async () => {
      const call = await paid();
      // The attacker: only the chain and the public transaction id.
      const rebuilt = (await authorizationsOnChain(chain, payer.address)).map(rebuildHeader);
      expect(rebuilt).toEqual([call.payment.value]);
      const scoreBefore = await score();
      const payerOnChain = await chain.balanceOf(payer.address);
      const heldBefore = await held();
      const filed = await api.request('POST', '/api/v1/disputes', {
        body: { transactionId: call.transactionId, reason: 'Nothing came back' },
        headers: { 'X-PAYMENT': rebuilt[0] },
      });
      expect(filed.status).toBe(201);
      const d = filed.body.data;
      expect(d).toMatchObject({
        transactionId: call.transactionId,
        status: 'pending',
        evidenceKey: null,
        verified: false,
      });
      expect(d.respondBy).toEqual(expect.any(String));
      expect(filed.headers.get('deprecation')).toMatch(/^@\d+$/);
      expect(filed.headers.get('link')).toMatch(/rel="deprecation"/);
      expect(await score()).toBe(scoreBefore);
      expect((await dispute(d.disputeId)).verified).toBe(false);
      // Nothing frozen: the agent still holds its earnings (the hold not frozen), its balance shows nothing disputed.
      expect([await account('frozen'), await held(), await postings(d.disputeId)]).toEqual([0n, heldBefore, []]);
      const [hold] = await ds.query(`SELECT status FROM escrow_holds WHERE transaction_id = $1`, [call.transactionId]);
      expect(hold?.status ?? 'none').not.toBe('frozen');
      const balance = (await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data;
      expect(balance.totalDisputed).toBe('0.000000');

      // The response window closes unanswered: the deadline leaves it to an admin, and no money moves.
      await windowClosed(d.respondBy);
      expect(await api.app.get(ResolveOverdueDispute).execute(d.disputeId)).toBe(false);
      const after = await dispute(d.disputeId);
      expect({ status: after.status, resolution: after.resolution, frozen: after.frozenAmount }).toEqual({
        status: 'pending',
        resolution: null,
        frozen: '0.000000',
      });
      expect([await score(), await refunds(), await chain.balanceOf(payer.address)]).toEqual([
        scoreBefore,
        0,
        payerOnChain,
      ]);
      // The stranger cannot confirm it: its signature is not the payer's, and a header again is the contract's 409.
      const strangerSigned = await fileDispute(api, call, {}, await clientSignature(stranger, call.transactionId));
      const headerAgain = await fileDispute(api, call, {}, { 'X-PAYMENT': rebuilt[0] });
      expect([strangerSigned.status, headerAgain.status, headerAgain.body.error.code]).toEqual([
        403,
        409,
        'DISPUTE_EXISTS',
      ]);

      // The payer files again with its signature: the same dispute, verified, and the normal rules apply.
      const confirmed = await fileDispute(
        api,
        call,
        { reason: 'The translation never came' },
        await clientSignature(payer, call.transactionId),
      );
      expect(confirmed.status).toBe(201);
      expect(confirmed.body.data).toMatchObject({
        disputeId: d.disputeId,
        status: 'pending',
        reason: 'The translation never came',
        verified: true,
        evidenceKey: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(confirmed.headers.get('deprecation')).toBeNull();
      // The payer's confirmation freezes the earnings, as a verified filing does.
      expect((await dispute(d.disputeId)).frozenAmount).toBe('0.009500');
      expect([await account('frozen'), await held(), await postings(d.disputeId)]).toEqual([
        9_500n,
        heldBefore - 9_500n,
        ['dispute.frozen'],
      ]);
      expect((await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data.totalDisputed).toBe(
        '0.009500',
      );
      // The weighted model (the default) records the filing with 0: its penalty lands with the verdict.
      expect(await score()).toBe(scoreBefore);
      await windowClosed(confirmed.body.data.respondBy);
      expect(await api.app.get(ResolveOverdueDispute).execute(d.disputeId)).toBe(true);
      const resolved = await dispute(d.disputeId);
      expect([resolved.verified, resolved.resolution.outcome, resolved.resolution.resolvedBy]).toEqual([
        true,
        'client_wins',
        'system:timeout',
      ]);
      expect(resolved.resolution.refundAmount).toBe('0.010000');
      expect(await refunds()).toBe(1);
      expect(await account('frozen')).toBe(0n);
      expect(await invariantViolations(ds)).toEqual([]);
    }, 60_000);

    it('an admin decides an unverified dispute the payer never confirmed (agent_wins: nothing to release)', async () => {
      const call = await paid();
      const [header] = (await authorizationsOnChain(chain, payer.address))
        .map(rebuildHeader)
        .filter((h) => h === call.payment.value);
      const filed = await fileDispute(api, call, {}, { 'X-PAYMENT': header });
      expect([filed.status, filed.body.data.verified]).toEqual([201, false]);
      const heldBefore = await held();
      const before = await score();
      const resolved = await resolveDispute(api, filed.body.data.disputeId, 'agent_wins');
      expect([resolved.status, resolved.body.data.resolution.outcome, resolved.body.data.verified]).toEqual([
        200,
        'agent_wins',
        false,
      ]);
      expect(await score()).toBe(before + 2);
      // Nothing was frozen, so nothing is released: the agent keeps what it held.
      expect([await account('frozen'), await held(), await postings(filed.body.data.disputeId)]).toEqual([
        0n,
        heldBefore,
        [],
      ]);
      expect(await invariantViolations(ds)).toEqual([]);
    });

    it("an admin's client_wins of an unconfirmed dispute refunds from what the agent holds then", async () => {
      const call = await paid();
      const [header] = (await authorizationsOnChain(chain, payer.address))
        .map(rebuildHeader)
        .filter((h) => h === call.payment.value);
      const filed = await fileDispute(api, call, {}, { 'X-PAYMENT': header });
      expect([filed.status, filed.body.data.verified]).toEqual([201, false]);
      expect((await dispute(filed.body.data.disputeId)).frozenAmount).toBe('0.000000');
      const heldBefore = await held();
      const refundsBefore = await refunds();
      const resolved = await resolveDispute(api, filed.body.data.disputeId, 'client_wins');
      expect(resolved.status).toBe(200);
      expect(resolved.body.data).toMatchObject({
        verified: false,
        frozenAmount: '0.009500',
        outstandingAmount: '0.000000',
        resolution: { outcome: 'client_wins', refundAmount: '0.010000', releasedAmount: '0.000000' },
      });
      // The earnings the agent held went back (frozen and refunded in the resolution's transaction), no debt.
      expect([await account('frozen'), await held(), await account('owed')]).toEqual([0n, heldBefore - 9_500n, 0n]);
      expect(await postings(filed.body.data.disputeId)).toEqual(['dispute.frozen', 'dispute.refunded']);
      expect(await refunds()).toBe(refundsBefore + 1);
      expect(await invariantViolations(ds)).toEqual([]);
    });

    it('the SDK files with the payer signature even when given the payment header: verified', async () => {
      const call = await paid();
      const sdk = new AgoraClient({ baseUrl: api.baseUrl, wallet: payer.privateKey });
      const filed = await sdk.disputes.file({
        transactionId: call.transactionId,
        reason: 'Wrong',
        payment: call.payment,
      });
      expect([filed.verified, filed.evidenceKey]).toEqual([true, expect.stringMatching(/^[0-9a-f]{64}$/)]);
    });
  });

  describe('local settlement', () => {
    let api: ApiHarness;
    let agentServer: TestAgentServer;

    beforeAll(async () => {
      agentServer = await new TestAgentServer().start();
      api = await startApi({ ...ENV, REPUTATION_MODEL: 'spec' });
    });
    afterAll(async () => {
      await api?.close();
      await agentServer?.stop();
    });

    it('a filing with the original header is verified as before: reputation, evidence key, client_wins at the deadline', async () => {
      const owner = newWallet();
      const registered = await registerAgent(api, owner, { endpoints: { execution: agentServer.url } });
      expect(registered.status).toBe(201);
      const agentId = registered.body.data.id;
      const call = await paidExecute(api, agentId, newWallet(), PRICE);
      const score = async () => (await api.request('GET', `/api/v1/reputation/${agentId}`)).body.data.score as number;
      const before = await score();
      const filed = await fileDispute(api, call);
      expect(filed.status).toBe(201);
      expect(filed.body.data).toMatchObject({ status: 'pending', verified: true, evidenceKey: expect.any(String) });
      expect(filed.headers.get('deprecation')).toBeNull();
      expect(await score()).toBe(before - 5);
      await windowClosed(filed.body.data.respondBy);
      expect(await api.app.get(ResolveOverdueDispute).execute(filed.body.data.disputeId)).toBe(true);
      const d = (await api.request('GET', `/api/v1/disputes/${filed.body.data.disputeId}`)).body.data;
      expect([d.verified, d.resolution.outcome]).toEqual([true, 'client_wins']);
    });
  });
});
