import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { FaultInjector } from '@app/common';
import type { LocalChain } from '../../scripts/local-chain';
import type { ApiHarness } from '../support/api-harness';
import { EvmStack, startEvmStack } from '../support/evm-stack';
import { builtApp, startProcess, waitFor } from '../support/processes';
import { onFreePort } from '../support/ports';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent, REGISTRATION_FEE_MICROS } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;

/**
 * The same on a real chain (anvil, the project's token), with the worker as its own process and
 * its sweeper on a short interval: a charge that fails after the transfer, and a process that
 * "dies" after the transfer and before recording it. Each payment moves the payer's USDC once,
 * is charged once, and the ledger check passes.
 */
describe('evm: settlements interrupted after the money moved are finished exactly once by the worker (e2e)', () => {
  let chain: LocalChain;
  let agentServer: TestAgentServer;
  let api: ApiHarness;
  let ds: DataSource;
  let agentId: string;

  let stack: EvmStack;

  beforeAll(async () => {
    stack = await startEvmStack({ SETTLEMENT_LEASE_MS: '1500', MAINTENANCE_INTERVAL_MS: '500' });
    ({ chain, agentServer, api, ds } = stack);
    agentId = stack.agentId;
  }, 60_000);
  afterAll(() => stack?.stop());

  const charges = async (executionId: string) =>
    (
      await ds.query(
        `SELECT (SELECT count(*) FROM transactions t JOIN executions e ON e.transaction_id = t.id WHERE e.id = $1)::int AS transactions,
                (SELECT count(*) FROM escrow_holds h JOIN executions e ON e.transaction_id = h.transaction_id WHERE e.id = $1)::int AS holds,
                (SELECT settlement_status FROM executions WHERE id = $1) AS settlement`,
        [executionId],
      )
    )[0] as { transactions: number; holds: number; settlement: string };

  const relayerSent = () => chain.provider.getTransactionCount(chain.platform.address, 'latest');

  async function interrupted(
    fault: string,
  ): Promise<{ id: string; payer: Wallet; status: number; sentBefore: number }> {
    const payer = newWallet();
    await chain.mint(payer.address, PRICE);
    const sentBefore = await relayerSent(); // after the mint, which the same account sends
    const h = await x402Header(payer, { amount: PRICE, payTo: chain.platform.address, asset: chain.usdcAddress });
    api.app.get(FaultInjector).arm(fault);
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: fault } },
      headers: { [h.name]: h.value },
    });
    const [row] = await ds.query(
      `SELECT e.id FROM executions e JOIN payments p ON p.id = e.payment_id WHERE p.nonce = $1`,
      [h.nonce.toLowerCase()],
    );
    return { id: row.id, payer, status: res.status, sentBefore };
  }

  async function finishedOnce(id: string, payer: Wallet, sentBefore: number): Promise<void> {
    // Within two sweeps once the lease has run out.
    await waitFor(
      async () => (await charges(id)).settlement === 'settled',
      'the sweeper to charge it',
      1_500 + 2 * 500 + 5_000,
    );
    expect(await charges(id)).toEqual({ transactions: 1, holds: 1, settlement: 'settled' });
    expect(await chain.balanceOf(payer.address)).toBe(0n); // moved once: exactly the price
    const [p] = await ds.query(
      `SELECT p.status, p.tx_hash FROM payments p JOIN executions e ON e.payment_id = p.id WHERE e.id = $1`,
      [id],
    );
    const receipt = await chain.provider.getTransactionReceipt(p.tx_hash);
    expect(receipt?.status).toBe(1); // the hash recorded is the transaction that moved the money
    expect(await relayerSent()).toBe(sentBefore + 1); // one transaction sent for it, none again
  }

  it('a charge that fails after the transfer: answered with output withheld, then charged once by the sweeper', async () => {
    const { id, payer, status, sentBefore } = await interrupted('charge.after-settle');
    expect(status).toBe(200);
    expect((await charges(id)).settlement).toBe('settlement_pending');
    await finishedOnce(id, payer, sentBefore);
  });

  it('a process that dies after the transfer and before recording it: the sweeper asks the chain and records that transfer, sending nothing again', async () => {
    const { id, payer, status, sentBefore } = await interrupted('settlement.before-record');
    // The payment was written before the fault: answered 202 with where to read it, never "send it again" (issue 53).
    expect(status).toBe(202);
    const [p] = await ds.query(
      `SELECT p.status FROM payments p JOIN executions e ON e.payment_id = p.id WHERE e.id = $1`,
      [id],
    );
    expect(p.status).toBe('settling');
    await finishedOnce(id, payer, sentBefore);
  });

  it('an api process killed with SIGKILL between the settlement and the charge (FAULT_KILL_AT): the worker charges it once', async () => {
    const proc = await onFreePort(async (port) => {
      const p = startProcess(builtApp('api'), { ...api.env, PORT: String(port), FAULT_KILL_AT: 'charge.after-settle' });
      await waitFor(async () => {
        if (p.child.exitCode !== null) throw new Error(`api exited:\n${p.output()}`);
        return (await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => null))?.status === 200;
      }, 'the api process');
      return { p, base: `http://127.0.0.1:${port}` };
    });
    const payer = newWallet();
    await chain.mint(payer.address, PRICE);
    const sentBefore = await relayerSent();
    const h = await x402Header(payer, { amount: PRICE, payTo: chain.platform.address, asset: chain.usdcAddress });
    const answered = await fetch(`${proc.base}/api/v1/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [h.name]: h.value },
      body: JSON.stringify({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'killed' } }),
    }).then(
      () => true,
      () => false,
    );
    expect(answered).toBe(false); // the process died before answering
    expect(await proc.p.exited).toBeNull(); // killed by a signal, not an exit
    expect(proc.p.child.signalCode).toBe('SIGKILL');
    const [row] = await ds.query(
      `SELECT e.id, p.status FROM executions e JOIN payments p ON p.id = e.payment_id WHERE p.nonce = $1`,
      [h.nonce.toLowerCase()],
    );
    expect(row.status).toBe('settled'); // the money moved and was recorded; the charge never ran
    expect((await charges(row.id)).transactions).toBe(0);
    await finishedOnce(row.id, payer, sentBefore);
  });

  it('a registration whose process dies after its fee moved: the worker records the fee and refunds it to the payer; no agent exists', async () => {
    const owner = newWallet();
    await chain.mint(owner.address, REGISTRATION_FEE_MICROS);
    api.app.get(FaultInjector).arm('settlement.before-record');
    const res = await registerAgent(
      api,
      owner,
      { endpoints: { execution: agentServer.url }, capabilities: [capabilityPayload()] },
      { asset: chain.usdcAddress },
    );
    expect(res.status).toBe(500);
    expect(await chain.balanceOf(owner.address)).toBe(0n); // the fee moved, nothing recorded it
    const [p] = await ds.query(`SELECT id, status FROM payments WHERE payer = $1 AND purpose = 'registration'`, [
      owner.address.toLowerCase(),
    ]);
    expect(p.status).toBe('settling');
    // The refund's transfer lands on chain before the worker records its receipt: wait for the record.
    const refunded = async () =>
      (
        await ds.query(
          `SELECT p.status, r.id AS refund_id, r.status AS refund_status, r.reason, (SELECT count(*)::int FROM agents WHERE wallet = p.payer) AS agents,
                  (SELECT count(*)::int FROM ledger_transactions WHERE code = 'registration.refunded' AND ref_id = p.id) AS postings
             FROM payments p JOIN refunds r ON r.id = p.ref_id WHERE p.id = $1`,
          [p.id],
        )
      )[0];
    const after = await waitFor(
      async () => {
        const row = await refunded();
        return row?.refund_status === 'completed' ? row : undefined;
      },
      'the worker to refund the fee and record it',
      1_500 + 2 * 500 + 10_000,
    );
    expect(await chain.balanceOf(owner.address)).toBe(REGISTRATION_FEE_MICROS);
    expect(after).toEqual({
      status: 'settled',
      refund_id: expect.stringMatching(/^rfd_/),
      refund_status: 'completed',
      reason: 'registration_unused',
      agents: 0,
      postings: 1,
    });
  });

  it('leaves a ledger that `ledger:check` passes', async () => {
    const check = startProcess(builtApp('ops'), { DATABASE_URL: api.databaseUrl, LOG_LEVEL: 'silent' }, [
      'ledger:check',
    ]);
    expect(await check.exited).toBe(0);
    expect(check.output()).toMatch(/ledger check passed/);
  });
});
