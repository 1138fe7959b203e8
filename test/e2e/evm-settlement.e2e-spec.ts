import { Signature, Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { createSigner } from 'x402/types';
import { wrapFetchWithPayment as wrapFetchV1, decodeXPaymentResponse } from 'x402-fetch';
import { Accounts, LedgerService } from '@app/ledger';
import { FaultInjector, InjectedFault } from '@app/common';
import {
  AuthorizePayment,
  PaymentsRepository,
  PAYOUT_MAX_ATTEMPTS,
  PLATFORM_FEE,
  ProcessWithdrawal,
  RecordCharge,
  SettlePayment,
} from '@app/payments';
import { startChain, LocalChain } from '../../scripts/local-chain';
import { startApi, ApiHarness } from '../support/api-harness';
import { evmEnv } from '../support/evm-env';
import { agentPayload, REGISTRATION_FEE_MICROS } from '../support/factories';
import { builtApp, startProcess } from '../support/processes';
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
  let platformStart: bigint;
  /** USDC that reached the platform wallet outside agora (the out-of-band settlement below). */
  let outOfBand = 0n;

  beforeAll(async () => {
    chain = await startChain();
    api = await startApi({
      ...evmEnv(chain),
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
    });
    ds = api.app.get(DataSource);
    platformStart = await chain.balanceOf(chain.platform.address);
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

  it('offers the local token as base-sepolia USDC and settles a v1 registration on chain', async () => {
    const offer = await api.request('POST', '/api/v1/agents', { body: agentPayload(newWallet()) });
    expect(offer.body.accepts[0]).toMatchObject({
      network: 'base-sepolia',
      asset: chain.usdcAddress,
      extra: { name: 'USDC', version: '2' },
    });
    const before = await chain.balanceOf(chain.platform.address);
    const { wallet, txHash } = await registerOnChain();
    const receipt = await chain.provider.getTransactionReceipt(txHash);
    expect(receipt?.status).toBe(1);
    expect(await chain.balanceOf(chain.platform.address)).toBe(before + REGISTRATION_FEE_MICROS);
    expect(await chain.balanceOf(wallet.address)).toBe(0n);
  });

  it('refuses an authorization already used on chain (PAYMENT_REPLAYED) and a payer without funds (insufficient_funds)', async () => {
    const wallet = await fundedWallet(REGISTRATION_FEE_MICROS);
    const h = await pay(wallet, REGISTRATION_FEE_MICROS);
    // Someone settles the authorization directly on chain, outside agora.
    const p = JSON.parse(Buffer.from(h.value, 'base64').toString()).payload;
    const sig = Signature.from(p.signature);
    const a = p.authorization;
    await (
      await chain.token.getFunction(
        'transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)',
      )(a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, sig.v, sig.r, sig.s)
    ).wait();
    outOfBand += REGISTRATION_FEE_MICROS;
    const replay = await api.request('POST', '/api/v1/agents', {
      body: agentPayload(wallet),
      headers: { [h.name]: h.value },
    });
    expect(replay.status).toBe(409);
    expect(replay.body.error.code).toBe('PAYMENT_REPLAYED');

    const broke = await fundedWallet(0n);
    const h2 = await pay(broke, REGISTRATION_FEE_MICROS);
    const res = await api.request('POST', '/api/v1/agents', {
      body: agentPayload(broke),
      headers: { [h2.name]: h2.value },
    });
    expect(res.status).toBe(402);
    expect(res.body.error.details.reason).toBe('insufficient_funds');
  });

  it('pays a withdrawal with an on-chain transfer whose signed transaction is stored before broadcast', async () => {
    const agent = await registerOnChain();
    const client = await fundedWallet(20_000_000n);
    await chargeOnChain(agent.id, 5_000_000n, client); // earnings 4.75
    const dest = newWallet().address;
    const res = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId: agent.id, amount: '4.75', destinationWallet: dest },
      headers: await walletHeaders(agent.wallet, agent.id, 'POST /api/v1/payments/withdraw'),
    });
    expect(res.status).toBe(201);
    expect(await api.app.get(ProcessWithdrawal).execute(res.body.data.withdrawalId)).toBe('completed');
    expect(await chain.balanceOf(dest)).toBe(4_650_000n); // net of the 0.10 fee
    const [row] = await ds.query(`SELECT signed_tx, tx_hash, status FROM withdrawals WHERE id = $1`, [
      res.body.data.withdrawalId,
    ]);
    expect(row.status).toBe('completed');
    expect(row.signed_tx).toMatch(/^0x02/);
    expect((await chain.provider.getTransactionReceipt(row.tx_hash))?.status).toBe(1);
  });

  it('a transfer persisted and never broadcast is sent by the next attempt: the same transaction, once', async () => {
    const w = await withdrawalPersistedNotSent();
    expect(await api.app.get(ProcessWithdrawal).execute(w.id)).toBe('completed');
    expect(await chain.balanceOf(w.dest)).toBe(1_900_000n);
    const [row] = await ds.query(
      `SELECT chain_tx_id, (SELECT count(*)::int FROM chain_txs WHERE nonce = $2) AS same_nonce FROM withdrawals WHERE id = $1`,
      [w.id, w.nonce],
    );
    expect(row).toEqual({ chain_tx_id: w.txId, same_nonce: 1 });
    expect(await chain.provider.getTransactionCount(chain.platform.address, 'latest')).toBe(w.nonce + 1);
  });

  it('a persisted transfer whose nonce another transaction consumed is dropped and signed again: the payout lands once', async () => {
    const w = await withdrawalPersistedNotSent();
    // Someone else (an operator's script) sends from the hot wallet with that nonce first.
    const hot = chain.platform.connect(chain.provider);
    await (await hot.sendTransaction({ to: hot.address, value: 0n, nonce: w.nonce })).wait();
    expect(await api.app.get(ProcessWithdrawal).execute(w.id)).toBe('completed');
    expect(await chain.balanceOf(w.dest)).toBe(1_900_000n);
    const txs: { id: string; status: string }[] = await ds.query(
      `SELECT c.id, c.status FROM chain_txs c WHERE c.kind = 'transfer' AND c.created_at >= (SELECT created_at FROM chain_txs WHERE id = $1) ORDER BY c.nonce`,
      [w.txId],
    );
    expect(txs.map((t) => t.status)).toEqual(['dropped', 'mined']);
    const [row] = await ds.query(`SELECT status, chain_tx_id FROM withdrawals WHERE id = $1`, [w.id]);
    expect(row).toEqual({ status: 'completed', chain_tx_id: txs[1].id });
  });

  it('on the fifth attempt a transfer signed during that attempt counts as signed: the payout is not failed, and lands once', async () => {
    const w = await withdrawalPersistedNotSent(PAYOUT_MAX_ATTEMPTS - 1);
    const [row] = await ds.query(`SELECT status, attempts FROM withdrawals WHERE id = $1`, [w.id]);
    expect(row).toEqual({ status: 'processing', attempts: PAYOUT_MAX_ATTEMPTS }); // not failed: its transfer can still land
    expect(await api.app.get(ProcessWithdrawal).execute(w.id)).toBe('completed');
    expect(await chain.balanceOf(w.dest)).toBe(1_900_000n);
  });

  it('I8: the platform wallet USDC delta equals the ledger external account, and ledger:check passes', async () => {
    const ledgerWorld = await api.app.get(LedgerService).balance(ds.manager, Accounts.worldChain().code);
    const delta = (await chain.balanceOf(chain.platform.address)) - platformStart;
    expect(delta).toBeGreaterThan(0n);
    expect(delta - outOfBand).toBe(-ledgerWorld);
    const check = startProcess(builtApp('ops'), { DATABASE_URL: api.databaseUrl, LOG_LEVEL: 'silent' }, [
      'ledger:check',
    ]);
    expect(await check.exited).toBe(0);
  });
});
