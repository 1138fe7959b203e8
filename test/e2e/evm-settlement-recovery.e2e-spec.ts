import { randomBytes } from 'crypto';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { createSigner } from 'x402/types';
import { wrapFetchWithPayment as wrapFetchV1, decodeXPaymentResponse } from 'x402-fetch';
import { FaultInjector, InjectedFault } from '@app/common';
import {
  AuthorizePayment,
  PaymentsRepository,
  PAYOUT_MAX_ATTEMPTS,
  PLATFORM_FEE,
  ProcessRefund,
  ProcessWithdrawal,
  RecordCharge,
  SettlePayment,
  toSettleRequest,
} from '@app/payments';
import { SettlementAdapter } from '@app/onchain';
import { startChain, LocalChain } from '../../scripts/local-chain';
import { startApi, ApiHarness } from '../support/api-harness';
import { evmEnv } from '../support/evm-env';
import { TestAgentServer } from '../support/agent-server';
import { agentPayload, capabilityPayload, REGISTRATION_FEE_MICROS } from '../support/factories';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

/**
 * The `evm` adapter on a real chain: anvil (chain id 84532) with the project's TestUSDC.
 * Ends with I8: the platform wallet's USDC delta equals what the ledger says came in net.
 */
describe('evm settlement on anvil (e2e)', () => {
  let chain: LocalChain;
  let api: ApiHarness;
  let ds: DataSource;

  beforeAll(async () => {
    chain = await startChain();
    api = await startApi({
      ...evmEnv(chain),
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
    });
    ds = api.app.get(DataSource);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await chain?.stop();
  });

  const pay = (wallet: Wallet, amount: bigint, o: Partial<Parameters<typeof x402Header>[1]> = {}) =>
    x402Header(wallet, { amount, payTo: chain.platform.address, asset: chain.usdcAddress, ...o });

  async function fundedWallet(micros: bigint): Promise<Wallet> {
    const w = newWallet();
    if (micros > 0n) await chain.mint(w.address, micros);
    return w;
  }

  /** An agent registered by paying on chain with the real v1 client. */
  async function registerOnChain(): Promise<{ id: string; wallet: Wallet; txHash: string }> {
    const wallet = await fundedWallet(REGISTRATION_FEE_MICROS);
    const signer = await createSigner('base-sepolia', wallet.privateKey as `0x${string}`);
    const res = await wrapFetchV1(fetch, signer)(`${api.baseUrl}/api/v1/agents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(agentPayload(wallet)),
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { data: { id: string } };
    return {
      id: body.data.id,
      wallet,
      txHash: decodeXPaymentResponse(res.headers.get('x-payment-response')!).transaction,
    };
  }

  /** A client pays platform fee + agent fee on chain; the charge is split and held as the execute flow will do. */
  async function chargeOnChain(agentId: string, agentFee: bigint, client: Wallet): Promise<void> {
    const payments = api.app.get(PaymentsRepository);
    const price = {
      amount: PLATFORM_FEE + agentFee,
      resource: `${api.config.publicBaseUrl}/api/v1/execute`,
      description: 'test execution',
    };
    const h = await pay(client, price.amount);
    const reserved = await api.app
      .get(AuthorizePayment)
      .execute({ value: h.value, version: h.name === 'X-PAYMENT' ? 1 : 2 }, price, {
        purpose: 'execution',
      });
    const settled = await api.app.get(SettlePayment).execute(reserved.id);
    await ds.transaction(async (m) => {
      const { transaction } = await api.app.get(RecordCharge).write(m, {
        paymentId: settled.id,
        payerWallet: client.address,
        requestingAgent: client.address,
        agentId,
        agentReputation: 90,
        capabilityId: 'translate',
        agentFee,
        platformFee: PLATFORM_FEE,
        executionTimeMs: 10,
      });
      await payments.bind(m, settled.id, transaction.id);
    });
  }

  /** A withdrawal whose worker "died" (an injected fault) after persisting its signed transfer and before broadcasting it. */
  async function withdrawalPersistedNotSent(
    attemptsBefore = 0,
  ): Promise<{ id: string; dest: string; txId: string; nonce: number }> {
    const agent = await registerOnChain();
    await chargeOnChain(agent.id, 3_000_000n, await fundedWallet(10_000_000n));
    const dest = newWallet().address;
    const res = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId: agent.id, amount: '2', destinationWallet: dest },
      headers: await walletHeaders(agent.wallet, agent.id, 'POST /api/v1/payments/withdraw'),
    });
    const id = res.body.data.withdrawalId;
    await ds.query(`UPDATE withdrawals SET attempts = $2 WHERE id = $1`, [id, attemptsBefore]);
    api.app.get(FaultInjector).arm('chain.after-persist');
    await expect(api.app.get(ProcessWithdrawal).execute(id)).rejects.toThrow(InjectedFault);
    const [row] = await ds.query(
      `SELECT w.status, w.chain_tx_id, c.nonce::int AS nonce, c.status AS tx_status FROM withdrawals w JOIN chain_txs c ON c.id = w.chain_tx_id WHERE w.id = $1`,
      [id],
    );
    expect(row).toMatchObject({ status: 'processing', tx_status: 'signed' });
    expect(await chain.balanceOf(dest)).toBe(0n);
    return { id, dest, txId: row.chain_tx_id, nonce: row.nonce };
  }
  /** The withdrawal as a version before the chain sender left it: its signed transfer stored, no chain transaction. */
  async function legacySigned(w: { id: string; txId: string }): Promise<string> {
    const [tx] = await ds.query(`SELECT signed_tx, tx_hash FROM chain_txs WHERE id = $1`, [w.txId]);
    await ds.query(`UPDATE withdrawals SET chain_tx_id = NULL, locked_until = NULL WHERE id = $1`, [w.id]);
    await ds.query(`DELETE FROM chain_txs WHERE id = $1`, [w.txId]);
    return tx.signed_tx;
  }

  it.each([
    ['never broadcast', false],
    ['already mined', true],
  ])(
    'a transfer signed before the chain sender existed (%s) is adopted and decided from the chain, never signed again',
    async (_label, broadcast) => {
      const w = await withdrawalPersistedNotSent();
      const signed = await legacySigned(w);
      if (broadcast) await chain.provider.send('eth_sendRawTransaction', [signed]);
      expect(await api.app.get(ProcessWithdrawal).execute(w.id)).toBe('completed');
      expect(await chain.balanceOf(w.dest)).toBe(1_900_000n);
      const [row] = await ds.query(
        `SELECT w.status, w.tx_hash, c.signed_tx, c.status AS tx_status FROM withdrawals w JOIN chain_txs c ON c.id = w.chain_tx_id WHERE w.id = $1`,
        [w.id],
      );
      expect(row).toMatchObject({ status: 'completed', signed_tx: signed, tx_status: 'mined' });
      expect(await chain.provider.getTransactionCount(chain.platform.address, 'latest')).toBe(w.nonce + 1); // one transaction for that payout
    },
  );

  it('a transfer stored by an earlier version that cannot be adopted keeps its payout open (not failed, money not returned) even past the last attempt', async () => {
    const w = await withdrawalPersistedNotSent(PAYOUT_MAX_ATTEMPTS);
    const signed = await legacySigned(w);
    const foreign = await Wallet.createRandom().signTransaction({
      to: w.dest,
      value: 0n,
      nonce: 0,
      chainId: 84532,
      gasLimit: 21_000n,
      maxFeePerGas: 1n,
      maxPriorityFeePerGas: 0n,
      type: 2,
    });
    await ds.query(`UPDATE withdrawals SET signed_tx = $2 WHERE id = $1`, [w.id, foreign]);
    await expect(api.app.get(ProcessWithdrawal).execute(w.id)).rejects.toThrow(/not from this hot wallet/);
    const [row] = await ds.query(`SELECT status FROM withdrawals WHERE id = $1`, [w.id]);
    expect(row.status).toBe('processing');
    await ds.query(`UPDATE withdrawals SET signed_tx = $2, locked_until = NULL WHERE id = $1`, [w.id, signed]);
    expect(await api.app.get(ProcessWithdrawal).execute(w.id)).toBe('completed');
    expect(await chain.balanceOf(w.dest)).toBe(1_900_000n);
  });

  it('an authorization used by a transaction older than the log window is never taken for unused: recovery throws and retries', async () => {
    const [p] = await ds.query(`SELECT id FROM payments WHERE status = 'settled' ORDER BY settled_at LIMIT 1`);
    const payment = (await api.app.get(PaymentsRepository).get(p.id))!;
    const adapter = api.app.get(SettlementAdapter);
    const req = { ...toSettleRequest(payment), txHash: null };
    expect(await adapter.settlementOf(req)).toBe(payment.txHash);
    const lookback = api.config.evmLogLookbackBlocks;
    try {
      api.config.evmLogLookbackBlocks = 1;
      await chain.provider.send('anvil_mine', ['0x3']);
      await expect(adapter.settlementOf(req)).rejects.toThrow(/was used, but no AuthorizationUsed log/);
    } finally {
      api.config.evmLogLookbackBlocks = lookback;
    }
  });

  it('a decision already recorded stands when the node no longer knows the transaction; a consumed nonce the node never saw is dropped (a settlement) or held for proof (a transfer)', async () => {
    const sender = api.app.get(SettlementAdapter).chainSender()!;
    const used = BigInt(await chain.provider.getTransactionCount(chain.platform.address, 'latest'));
    expect(used).toBeGreaterThan(1n);
    const insert = (status: string, nonce: bigint, kind = 'transfer') =>
      ds.query(
        `INSERT INTO chain_txs (id, wallet, nonce, kind, tx_hash, signed_tx, status, resend_at) VALUES ($1, $2, $3, $6, $4, '0x02', $5, now()) RETURNING id`,
        [
          `ctx_${randomBytes(8).toString('hex')}`,
          chain.platform.address.toLowerCase(),
          nonce.toString(),
          `0x${randomBytes(32).toString('hex')}`,
          status,
          kind,
        ],
      );
    const [mined] = await insert('mined', used - 1n);
    expect((await sender.resolve(mined.id)).state).toBe('mined'); // a lagging node does not make it dropped (and the payout signed again)
    const [lost] = await insert('signed', used - 2n, 'settlement');
    expect((await sender.resolve(lost.id)).state).toBe('dropped');
    expect((await sender.resolve(lost.id)).state).toBe('dropped');
    // A transfer is dropped (and signed again) only once the nonce's holder is read and is not this payment (issue 53):
    // this row's bytes cannot be compared with it, so it waits for an operator rather than risk paying twice.
    const [unproven] = await insert('signed', used - 2n);
    expect((await sender.resolve(unproven.id)).state).toBe('pending');
    const rows = await ds.query(`SELECT status FROM chain_txs WHERE id = ANY($1) ORDER BY nonce, kind`, [
      [mined.id, lost.id, unproven.id],
    ]);
    expect(rows.map((r: { status: string }) => r.status)).toEqual(['dropped', 'signed', 'mined']);
    await ds.query(`DELETE FROM chain_txs WHERE id = ANY($1)`, [[mined.id, lost.id, unproven.id]]);
  });

  it('executes a dynamic-price capability: the cap settles on chain and the unused part goes back to the payer', async () => {
    const agentServer = await new TestAgentServer().start();
    try {
      const wallet = await fundedWallet(REGISTRATION_FEE_MICROS);
      const pricing = { model: 'dynamic', basePrice: '0.01', maxPrice: '0.50', currency: 'USDC' };
      const h = await pay(wallet, REGISTRATION_FEE_MICROS);
      const reg = await api.request('POST', '/api/v1/agents', {
        body: agentPayload(wallet, {
          endpoints: { execution: agentServer.url },
          capabilities: [capabilityPayload({ id: 'quote', pricing })],
        }),
        headers: { [h.name]: h.value },
      });
      expect(reg.status).toBe(201);
      const client = await fundedWallet(1_000_000n);
      const paid = await pay(client, PLATFORM_FEE + 500_000n);
      const res = await api.request('POST', '/api/v1/execute', {
        body: { targetAgentId: reg.body.data.id, capabilityId: 'quote', input: { text: 'q', cost: '0.12' } },
        headers: { [paid.name]: paid.value },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.cost).toMatchObject({
        agentFee: '0.120000',
        total: '0.121000',
        authorized: '0.501000',
        refunded: '0.380000',
      });
      expect(await chain.balanceOf(client.address)).toBe(1_000_000n - 501_000n); // the whole authorization settled
      expect(await api.app.get(ProcessRefund).execute(res.body.data.refund.refundId)).toBe('completed');
      expect(await chain.balanceOf(client.address)).toBe(1_000_000n - 121_000n); // charged exactly the metered cost
      const [row] = await ds.query(`SELECT tx_hash, signed_tx FROM refunds WHERE id = $1`, [
        res.body.data.refund.refundId,
      ]);
      expect(row.signed_tx).toMatch(/^0x02/);
      expect((await chain.provider.getTransactionReceipt(row.tx_hash))?.status).toBe(1);
    } finally {
      await agentServer.stop();
    }
  });
});
