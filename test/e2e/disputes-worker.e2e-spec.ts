import { Interface, InterfaceAbi } from 'ethers';
import { DataSource } from 'typeorm';
import { Accounts, LedgerService } from '@app/ledger';
import { PLATFORM_FEE } from '@app/payments';
import { startChain, LocalChain } from '../../scripts/local-chain';
import { TestAgentServer } from '../support/agent-server';
import { ApiHarness, startApi } from '../support/api-harness';
import { evmEnv } from '../support/evm-env';
import { agentPayload, capabilityPayload, REGISTRATION_FEE_MICROS } from '../support/factories';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet, signAuth, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';
import {
  ADMIN,
  AGENT_FEE,
  EARNINGS,
  PRICE,
  disputeTrail,
  invariantViolations,
  txStatus,
  refundStatus,
} from '../support/disputes-worker';

/**
 * Disputes end to end with the worker process (dist/apps/worker/main.js): a client_wins refund
 * sent on chain by the worker (anvil, `evm` mode), the response deadline resolving an unanswered
 * dispute by itself (and leaving an answered one alone), and the sweeper resolving a dispute whose
 * delayed job Redis lost, exactly once.
 */
describe('disputes on anvil: client_wins refunded on chain by the worker (e2e)', () => {
  let chain: LocalChain;
  let api: ApiHarness;
  let ds: DataSource;
  let translator: TestAgentServer;
  let worker: RunningProcess | undefined;
  let platformStart: bigint;

  beforeAll(async () => {
    chain = await startChain();
    translator = await new TestAgentServer().start();
    api = await startApi({
      ...evmEnv(chain),
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      MAINTENANCE_INTERVAL_MS: '500',
      // The spec's deltas for every paying wallet (the weighted model has its tests in reputation-sybil).
      REPUTATION_MODEL: 'spec',
    });
    ds = api.app.get(DataSource);
    platformStart = await chain.balanceOf(chain.platform.address);
    worker = startProcess(builtApp('worker'), api.env);
  }, 60_000);
  afterAll(async () => {
    if (worker) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
    await api?.close();
    await translator?.stop();
    await chain?.stop();
  });

  /** A header paying `amount` on the local chain, from a wallet minted exactly that much. */
  const pay = async (amount: bigint, w = newWallet()) => {
    await chain.mint(w.address, amount);
    return x402Header(w, { amount, payTo: chain.platform.address, asset: chain.usdcAddress });
  };

  it('a payer files, the admin resolves client_wins, the worker sends the agent fee back on chain: balances to the micro-USDC, I8 against the chain, disputes invariants', async () => {
    const owner = newWallet();
    const reg = await pay(REGISTRATION_FEE_MICROS, owner);
    const registered = await api.request('POST', '/api/v1/agents', {
      body: agentPayload(owner, {
        endpoints: { execution: translator.url },
        capabilities: [capabilityPayload({ pricing: PRICE })],
      }),
      headers: { [reg.name]: reg.value },
    });
    expect(registered.status).toBe(201);
    const agentId = registered.body.data.id as string;

    // A real execute, its payment settled on chain before the agent ran.
    const payer = newWallet();
    const paid = await pay(PLATFORM_FEE + AGENT_FEE, payer);
    const exec = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'bonjour' } },
      headers: { [paid.name]: paid.value },
    });
    expect(exec.status).toBe(200);
    expect(exec.body.data.settlement).toEqual({
      status: 'settled',
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      livemode: false,
    });
    const transactionId = exec.body.data.transactionId as string;
    expect(transactionId).toMatch(/^tx_/);
    expect(await chain.balanceOf(payer.address)).toBe(0n);

    // The payer disputes it with its signature (on a public chain the header that paid proves nothing: anyone
    // rebuilds it, abuse-dispute-header); the earnings (still in escrow: a new agent is Standard tier) are frozen.
    const filed = await api.request('POST', '/api/v1/disputes', {
      body: { transactionId, reason: 'The translation was wrong', evidence: 'expected "hello"' },
      headers: { 'X-Client-Wallet': payer.address, 'X-Client-Signature': await signAuth(payer, transactionId) },
    });
    expect(filed.status).toBe(201);
    const disputeId = filed.body.data.disputeId as string;
    expect(filed.body.data).toMatchObject({ transactionId, status: 'pending' });
    expect((await api.request('GET', `/api/v1/disputes/${disputeId}`)).body.data).toMatchObject({
      status: 'pending',
      clientId: payer.address.toLowerCase(),
      agentId,
      frozenAmount: '1.140000',
      advancedAmount: '0.000000',
      resolution: null,
    });
    expect(await txStatus(ds, transactionId)).toBe('disputed');
    expect((await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data).toMatchObject({
      available: '0.000000',
      pending: '0.000000',
      totalDisputed: '1.140000',
    });

    const resolved = await api.request('POST', `/api/v1/admin/disputes/${disputeId}/resolve`, {
      body: { resolution: 'client_wins', note: 'output did not match' },
      headers: ADMIN,
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({
      status: 'resolved',
      resolution: {
        outcome: 'client_wins',
        note: 'output did not match',
        refundAmount: '1.200000',
        releasedAmount: '0.000000',
        resolvedBy: 'admin',
      },
    });

    // The worker pays the refund with an on-chain USDC transfer from the hot wallet.
    const refundId = `rfd_${disputeId.slice(4)}`;
    await waitFor(
      async () => (await refundStatus(ds, refundId)) === 'completed',
      'the dispute refund sent by the worker',
      30_000,
    );
    expect(await chain.balanceOf(payer.address)).toBe(AGENT_FEE); // exactly the agent fee came back; the platform fee did not
    const [refund] = await ds.query(
      `SELECT r.amount::text, r.reason, r.wallet, r.transaction_id, r.tx_hash, c.status AS chain_status FROM refunds r JOIN chain_txs c ON c.id = r.chain_tx_id WHERE r.id = $1`,
      [refundId],
    );
    expect(refund).toMatchObject({
      amount: AGENT_FEE.toString(),
      reason: 'dispute',
      wallet: payer.address.toLowerCase(),
      transaction_id: transactionId,
      chain_status: 'mined',
    });
    const receipt = await chain.provider.getTransactionReceipt(refund.tx_hash);
    expect(receipt?.status).toBe(1);
    const erc20 = new Interface(chain.abi as InterfaceAbi);
    const transfers = receipt!.logs
      .filter((l) => l.address.toLowerCase() === chain.usdcAddress.toLowerCase())
      .map((l) => erc20.parseLog(l))
      .filter((e) => e?.name === 'Transfer')
      .map((e) => ({
        from: (e!.args[0] as string).toLowerCase(),
        to: (e!.args[1] as string).toLowerCase(),
        value: e!.args[2] as bigint,
      }));
    expect(transfers).toEqual([
      { from: chain.platform.address.toLowerCase(), to: payer.address.toLowerCase(), value: AGENT_FEE },
    ]);

    expect(await txStatus(ds, transactionId)).toBe('refunded');
    const trail = await disputeTrail(ds, disputeId);
    expect(trail.dispute).toMatchObject({ status: 'resolved', frozen: EARNINGS.toString(), frozen_from: 'escrow' });
    expect(trail.reputation).toEqual([
      { type: 'dispute.filed', delta: -5 },
      { type: 'dispute.client_wins', delta: -5 },
    ]);
    expect(trail.postings.map((p) => p.code)).toEqual(['dispute.frozen', 'dispute.refunded', 'refund.paid']);
    expect(trail.refunds).toHaveLength(1);
    expect((await api.request('GET', `/api/v1/reputation/${agentId}`)).body.data).toMatchObject({
      score: 41,
      breakdown: { disputesWon: 0, disputesLost: 1 },
    });
    expect((await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data).toMatchObject({
      available: '0.000000',
      pending: '0.000000',
      totalDisputed: '0.000000',
    });
    const ledger = api.app.get(LedgerService);
    expect(await ledger.balance(ds.manager, Accounts.clientRefundPayable(payer.address).code)).toBe(0n);
    expect(await ledger.balance(ds.manager, Accounts.agentFrozen(agentId).code)).toBe(0n);

    // I8 against the chain: what reached the platform wallet, net, is what the ledger says came in from the chain.
    const kept = REGISTRATION_FEE_MICROS + PLATFORM_FEE + AGENT_FEE - AGENT_FEE;
    expect(await chain.balanceOf(chain.platform.address)).toBe(platformStart + kept);
    const [world] = await ds.query(`SELECT (-sum(balance))::text AS net FROM ledger_accounts WHERE kind = 'world'`);
    expect(BigInt(world.net)).toBe(kept);
    expect(await invariantViolations(ds)).toEqual([]);
    const check = startProcess(builtApp('ops'), { DATABASE_URL: api.databaseUrl, LOG_LEVEL: 'silent' }, [
      'ledger:check',
    ]);
    expect(await check.exited).toBe(0);
  });
  it('the money pump on chain: the actor who pays its own agent, withdraws and disputes gets less USDC out of the hot wallet than it put in', async () => {
    // Agent A (wallet aw) at a Trusted score, so earnings are available at once; client wallet cw is the same actor's.
    const [aw, cw] = [newWallet(), newWallet()];
    const fee = 2_000_000n; // 2.00: cut 0.10, earnings 1.90
    const reg = await pay(REGISTRATION_FEE_MICROS, aw);
    const registered = await api.request('POST', '/api/v1/agents', {
      body: agentPayload(aw, {
        endpoints: { execution: translator.url },
        capabilities: [capabilityPayload({ pricing: { ...PRICE, basePrice: '2.00' } })],
      }),
      headers: { [reg.name]: reg.value },
    });
    const agentId = registered.body.data.id as string;
    await ds.query(`UPDATE agents SET reputation_score = 65 WHERE id = $1`, [agentId]);
    const hotBefore = await chain.balanceOf(chain.platform.address);
    const paid = await pay(PLATFORM_FEE + fee, cw);
    const exec = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'pump' } },
      headers: { [paid.name]: paid.value },
    });
    expect(exec.status).toBe(200);
    const sink = newWallet().address; // where A withdraws to
    const wd = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId, amount: '1.900000', destinationWallet: sink },
      headers: await walletHeaders(aw, agentId, 'POST /api/v1/payments/withdraw'),
    });
    expect(wd.status).toBe(201);
    await waitFor(
      async () =>
        (await ds.query(`SELECT status FROM withdrawals WHERE id = $1`, [wd.body.data.withdrawalId]))[0].status ===
        'completed',
      'the withdrawal',
    );
    const filed = await api.request('POST', '/api/v1/disputes', {
      body: { transactionId: exec.body.data.transactionId, reason: 'never delivered' },
      headers: {
        'X-Client-Wallet': cw.address,
        'X-Client-Signature': await signAuth(cw, exec.body.data.transactionId),
      },
    });
    expect(filed.status).toBe(201);
    const disputeId = filed.body.data.disputeId as string;
    const resolved = await api.request('POST', `/api/v1/admin/disputes/${disputeId}/resolve`, {
      body: { resolution: 'client_wins' },
      headers: ADMIN,
    });
    expect(resolved.body.data).toMatchObject({
      resolution: { refundAmount: '2.000000' },
      refundedAmount: '0.100000',
      outstandingAmount: '1.900000',
      advancedAmount: '0.000000',
    });
    await waitFor(
      async () => (await refundStatus(ds, `rfd_${disputeId.slice(4)}`)) === 'completed',
      'the refund of the cut',
    );
    // Out of the hot wallet to the actor: 1.80 (1.90 less the 0.10 fee) + 0.10. In: 2.001 (and 0.10 to register).
    // Before the fix the refund was 2.00: 3.80 out for 2.101 in.
    const out = (await chain.balanceOf(sink)) + (await chain.balanceOf(cw.address));
    expect(out).toBe(1_900_000n);
    expect(out).toBeLessThan(PLATFORM_FEE + fee + REGISTRATION_FEE_MICROS);
    expect(await chain.balanceOf(chain.platform.address)).toBe(hotBefore + PLATFORM_FEE + fee - out);
    expect(await invariantViolations(ds)).toEqual([]);
  });
});
