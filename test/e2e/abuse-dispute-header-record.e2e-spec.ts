import { DataSource } from 'typeorm';
import { startChain, LocalChain } from '../../scripts/local-chain';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { clientSignature, fileDispute, PaidCall, resolveDispute } from '../support/disputes';
import { evmEnv } from '../support/evm-env';
import { REGISTRATION_FEE_MICROS, registerAgent } from '../support/factories';
import { invariantViolations } from '../support/disputes-worker';
import { matureSpend } from '../support/payer-spend';
import { authorizationsOnChain, rebuildHeader } from '../support/rebuilt-headers';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n; // translate: 0.01 agent fee (0.0095 earnings), 0.001 to the platform
const AGENT_FEE = 10_000n;

/**
 * Issue 52, M-2: a stranger's dispute (a payment header rebuilt from chain data, unverified) must not mark the
 * charge disputed. Before, it set the transaction `disputed` (dispute_id set) and such a dispute never lapses, so
 * for free a competitor kept the victim agent's reserve on (its established record skips disputed charges), took
 * its paid record from the work shares (completed charges only) and kept the payer unfunded (the payer_spend
 * sweep skips disputed charges). Now the claim lives in the dispute row alone until the payer's signature
 * confirms it, or an admin's refund decides it.
 */
describe('abuse: a stranger disputes with a rebuilt header, the charge keeps counting (e2e)', () => {
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
    api = await startApi({ ...evmEnv(chain), OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
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
    const payment = await x402Header(payer, { amount: PRICE, payTo: chain.platform.address, asset: chain.usdcAddress });
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'a sale' } },
      headers: { [payment.name]: payment.value },
    });
    expect([res.status, res.body.data.settlement.status]).toEqual([200, 'settled']);
    return { transactionId: res.body.data.transactionId, requestId: res.body.data.requestId, payment, payer };
  }
  /** The stranger's filing: the payer's header rebuilt from the chain's calldata. */
  async function strangerFiles(call: PaidCall): Promise<string> {
    const [header] = (await authorizationsOnChain(chain, payer.address))
      .map(rebuildHeader)
      .filter((h) => h === call.payment.value);
    const filed = await fileDispute(api, call, {}, { 'X-PAYMENT': header });
    expect([filed.status, filed.body.data.verified]).toEqual([201, false]);
    return filed.body.data.disputeId;
  }
  const row = async (transactionId: string) =>
    (await ds.query(`SELECT status, dispute_id FROM transactions WHERE id = $1`, [transactionId]))[0];
  const read = async (transactionId: string) =>
    (await api.request('GET', `/api/v1/payments/tx/${transactionId}`)).body.data;
  const spend = async () =>
    (
      await ds.query(`SELECT coalesce((SELECT amount FROM payer_spend WHERE payer = $1), 0)::text AS a`, [
        payer.address.toLowerCase(),
      ])
    )[0].a as string;

  it("leaves the charge completed until the payer confirms or an admin refunds, and the payer's spend counts it", async () => {
    // 1. A stranger's filing nobody confirms: the charge stays completed, with no dispute; a second filing is 409.
    const ignored = await paid();
    const ignoredDispute = await strangerFiles(ignored);
    expect(await row(ignored.transactionId)).toEqual({ status: 'completed', dispute_id: null });
    expect(await read(ignored.transactionId)).toMatchObject({ status: 'completed' });
    const again = await fileDispute(api, ignored, {}, { 'X-PAYMENT': ignored.payment.value });
    expect([again.status, again.body.error.code]).toEqual([409, 'DISPUTE_EXISTS']);
    const strangerSigned = await fileDispute(api, ignored, {}, await clientSignature(stranger, ignored.transactionId));
    expect(strangerSigned.status).toBe(403);
    expect(await row(ignored.transactionId)).toEqual({ status: 'completed', dispute_id: null });

    // 2. The payer confirms with its signature: now the charge is disputed, by that dispute.
    const confirmedCall = await paid();
    const confirmedDispute = await strangerFiles(confirmedCall);
    expect(await row(confirmedCall.transactionId)).toEqual({ status: 'completed', dispute_id: null });
    const confirmed = await fileDispute(
      api,
      confirmedCall,
      {},
      await clientSignature(payer, confirmedCall.transactionId),
    );
    expect([confirmed.status, confirmed.body.data.disputeId, confirmed.body.data.verified]).toEqual([
      201,
      confirmedDispute,
      true,
    ]);
    expect(await row(confirmedCall.transactionId)).toEqual({ status: 'disputed', dispute_id: confirmedDispute });
    expect(await read(confirmedCall.transactionId)).toMatchObject({ status: 'disputed' });

    // 3. An admin refunds an unconfirmed one: the charge is marked by its dispute and refunded.
    const refundedCall = await paid();
    const refundedDispute = await strangerFiles(refundedCall);
    expect((await resolveDispute(api, refundedDispute, 'client_wins')).status).toBe(200);
    expect(await row(refundedCall.transactionId)).toEqual({ status: 'refunded', dispute_id: refundedDispute });

    // 4. An admin's agent_wins of an unconfirmed one leaves the charge as it was.
    const keptCall = await paid();
    const keptDispute = await strangerFiles(keptCall);
    expect((await resolveDispute(api, keptDispute, 'agent_wins')).status).toBe(200);
    expect(await row(keptCall.transactionId)).toEqual({ status: 'completed', dispute_id: null });

    // Matured: the sweep counts the undisputed charges (the ignored one and agent_wins' in full, the refunded
    // one for nothing), once; the confirmed one waits for its verdict. The ignored dispute is still pending.
    expect((await api.request('GET', `/api/v1/disputes/${ignoredDispute}`)).body.data.status).toBe('pending');
    expect(await spend()).toBe('0');
    expect(await matureSpend(api, [payer])).toEqual({ counted: 3 });
    expect(await spend()).toBe((2n * AGENT_FEE).toString());
    expect(await matureSpend(api, [payer])).toEqual({ counted: 0 });
    expect(await spend()).toBe((2n * AGENT_FEE).toString());
    const [uncounted] = await ds.query(`SELECT id FROM transactions WHERE payer_wallet = $1 AND NOT spend_counted`, [
      payer.address.toLowerCase(),
    ]);
    expect(uncounted).toEqual({ id: confirmedCall.transactionId });
    expect(await invariantViolations(ds)).toEqual([]);
  }, 90_000);
});
