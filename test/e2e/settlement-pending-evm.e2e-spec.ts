import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
  PAYMENT_IDENTIFIER,
} from '@x402/extensions/payment-identifier';
import type { LocalChain } from '../../scripts/local-chain';
import type { ApiHarness } from '../support/api-harness';
import { EvmStack, startEvmStack } from '../support/evm-stack';
import { builtApp, startProcess, waitFor } from '../support/processes';
import { clientSignature } from '../support/disputes';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';
import { executionCounts, referencePayingFetch } from '../support/x402-client';

const PRICE = 11_000n;

/**
 * Issue 33, honest settlement states, on anvil with a node that stalls receipts (automine off: the
 * settlement stays in the mempool past EVM_RECEIPT_TIMEOUT_MS). A paid call whose transaction was
 * broadcast is never answered 402: 200 with `settlement_pending`, its hash, the output withheld; a
 * retry of the same payment answers the same and charges nothing more; the worker keeps it without
 * sending a second transaction; once mined, the status route follows it to `settled` with the same
 * hash, the output is readable, one transfer moved the money, and the ledger check passes. Every
 * answer the client sees matches `GET /payments/status/:ref`.
 */
describe('evm: a settlement whose receipt stalls is pending, never 402, and followed to settled (e2e)', () => {
  let chain: LocalChain;
  let api: ApiHarness;
  let ds: DataSource;
  let path: string;

  let stack: EvmStack;

  beforeAll(async () => {
    stack = await startEvmStack({
      EVM_RECEIPT_TIMEOUT_MS: '1000',
      SETTLEMENT_LEASE_MS: '3000',
      MAINTENANCE_INTERVAL_MS: '500',
    });
    ({ chain, api, ds } = stack);
    path = `/api/v1/agents/${stack.agentId}/capabilities/translate/execute`;
  }, 60_000);
  afterAll(() => stack?.stop());

  const relayerSent = () => chain.provider.getTransactionCount(chain.platform.address, 'latest');
  const chainTxs = async () => (await ds.query(`SELECT count(*)::int AS n FROM chain_txs`))[0].n as number;
  /** The status read; with `payer`, as that payer (its signature: a key and a request id are told to it only). */
  const status = async (ref: string, payer?: Wallet) =>
    api.request('GET', `/api/v1/payments/status/${ref}${payer ? `?payer=${payer.address}` : ''}`, {
      headers: payer ? await clientSignature(payer, payer.address) : {},
    });
  const pay = (payer: Wallet, o: Partial<Parameters<typeof x402Header>[1]> = {}) =>
    x402Header(payer, { amount: PRICE, payTo: chain.platform.address, asset: chain.usdcAddress, ...o });
  const execute = (h: { name: string; value: string }, input: Record<string, unknown>) =>
    api.request('POST', path, { body: input, headers: { [h.name]: h.value } });

  it('refuses malformed references with 400 and answers 404 for one nothing matches, counted as a read', async () => {
    for (const ref of [
      'pay_0123456789abcdef%00',
      'a'.repeat(129),
      'pay_0123456789abc.def',
      'short',
      `0x${'ab'.repeat(32)}%20`,
    ]) {
      const res = await status(ref);
      expect([ref, res.status, res.body.error?.code, res.body.error?.details?.errors?.[0]?.field]).toEqual([
        ref,
        400,
        'VALIDATION_ERROR',
        'ref',
      ]);
    }
    const missing = await status(`0x${'cd'.repeat(32)}`);
    expect([missing.status, missing.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect(missing.headers.get('x-ratelimit-limit')).toEqual(expect.any(String));
  });

  it('a run that fails keeps its authorization unsent: released, no hash', async () => {
    const payer = newWallet();
    await chain.mint(payer.address, PRICE);
    const h = await pay(payer, {
      version: 2,
      extensions: { [PAYMENT_IDENTIFIER]: { info: { required: false, id: generatePaymentId() } } },
    });
    const res = await execute(h, { text: 'x', mode: 'fail' });
    expect([res.status, res.body.error.code]).toEqual([502, 'EXECUTION_FAILED']);
    const seen = await status(h.nonce, payer);
    expect(seen.status).toBe(200);
    expect(seen.body.data.payments).toEqual([
      expect.objectContaining({ status: 'released', txHash: null, requestId: res.body.error.details.requestId }),
    ]);
  });

  it('answers 200 settlement_pending with the hash while the receipt stalls, the worker keeps it, and it settles once', async () => {
    const payer = newWallet();
    await chain.mint(payer.address, PRICE);
    const sentBefore = await relayerSent(); // after the mint, which the same account sends
    const txsBefore = await chainTxs();
    const id = generatePaymentId();
    const window = {
      validAfter: BigInt(Math.floor(Date.now() / 1000)) - 600n,
      validBefore: BigInt(Math.floor(Date.now() / 1000)) + 300n,
    };
    const h = await pay(payer, {
      version: 2,
      ...window,
      extensions: { [PAYMENT_IDENTIFIER]: { info: { required: false, id } } },
    });
    const input = { text: 'stalled' };

    await chain.provider.send('evm_setAutomine', [false]);
    const first = await execute(h, input);
    expect(first.status).toBe(200); // never 402: the authorization was broadcast
    const requestId = first.body.data.requestId;
    const txHash = first.body.data.settlement.txHash as string;
    expect(first.body.data).toMatchObject({
      status: 'completed',
      settlement: { status: 'settlement_pending', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
      message: 'Output is withheld until the payment settles',
    });
    expect(first.body.data.output).toBeUndefined();
    expect(first.headers.get('payment-response')).toBeNull();
    // Its signed receipt says the settlement is pending, with the transaction sent, and verifies.
    const pendingReceipt = first.body.data.receipt;
    const verdict = await api.request('POST', '/api/v1/receipts/verify', {
      // Its hashes (and its commitment to the request id, version 4) are keyed with the salt given beside it.
      body: { receipt: pendingReceipt, input, salt: first.body.data.receiptSalt, requestId: first.body.data.requestId },
    });
    // Nothing is delivered or charged yet: no output hash, no fees (the output is withheld, not even its hash shown).
    expect(verdict.body.data).toMatchObject({
      valid: true,
      payload: {
        settlementPending: true,
        transaction: txHash,
        requestCommitment: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        contentHash: `0x${'00'.repeat(32)}`,
        agentFee: '0',
        platformFee: '0',
        amount: '11000',
      },
    });
    const pooled = await chain.provider.send('eth_getTransactionByHash', [txHash]);
    expect(pooled).toMatchObject({ hash: txHash, blockNumber: null }); // broadcast, in the mempool
    const [row] = await ds.query(`SELECT status, tx_hash FROM payments WHERE nonce = $1`, [h.nonce.toLowerCase()]);
    expect(row).toEqual({ status: 'settling', tx_hash: txHash });

    /** Every client-visible answer matches the status route, by hash, nonce and identifier. */
    const matches = async (expected: string, hash: string) => {
      // A transaction hash alone; a nonce and an identifier are the payer's own.
      for (const [ref, who] of [
        [hash, undefined],
        [h.nonce, payer],
        [id, payer],
      ] as const) {
        const seen = await status(ref, who);
        expect([ref, seen.status]).toEqual([ref, 200]);
        expect(seen.body.data.payments).toEqual([
          {
            status: expected,
            purpose: 'execution',
            network: 'base-sepolia',
            chainId: 84532,
            asset: chain.usdcAddress.toLowerCase(),
            payer: payer.address.toLowerCase(),
            amount: '0.011000',
            nonce: h.nonce.toLowerCase(),
            txHash: hash,
            // A settlement hash alone is public: the request id only to the payer, signed.
            requestId: who ? requestId : null,
            createdAt: expect.any(String),
            settledAt: expected === 'settled' ? expect.any(String) : null,
            livemode: false,
          },
        ]);
      }
    };
    await matches('settlement_pending', txHash);
    const before = await executionCounts(ds);

    // A retry of the same payment (same header, same identifier): the stored answer, pending, never 402.
    const again = await execute(h, input);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ requestId, settlement: { status: 'settlement_pending', txHash } });
    // A conforming client retrying with the same identifier signs a new authorization: never used.
    const client = referencePayingFetch(payer, (c) =>
      // The local chain's token stands in for base-sepolia USDC at another address: allowed explicitly.
      c.setSpendControls({ allowedAssets: true }).onBeforePaymentCreation(async ({ paymentRequired }) => {
        appendPaymentIdentifierToExtensions((paymentRequired.extensions ??= {}), id);
      }),
    );
    const retried = await client(`${api.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    expect(retried.status).toBe(200);
    expect(((await retried.json()) as any).data).toMatchObject({
      requestId,
      settlement: { status: 'settlement_pending', txHash },
    });
    // The same authorization sent again without its identifier (v1): a replay (409), not a 402.
    const v1 = await execute(await pay(payer, { version: 1, ...window, nonce: h.nonce }), input);
    expect([v1.status, v1.body.error.code]).toEqual([409, 'PAYMENT_REPLAYED']);
    const read = await api.request('GET', `/api/v1/execute/${requestId}`, { headers: { [h.name]: h.value } });
    expect(read.body.data).toMatchObject({ settlement: { status: 'settlement_pending', txHash } });
    expect(read.body.data.output).toBeUndefined();
    expect(await executionCounts(ds)).toEqual(before); // nothing more reserved, run or charged

    // The worker takes the lapsed lease over, asks the chain, and sends nothing while the transaction can land.
    await waitFor(
      async () =>
        (await ds.query(`SELECT settle_attempts FROM payments WHERE nonce = $1`, [h.nonce.toLowerCase()]))[0]
          .settle_attempts >= 2,
      'the worker to look at the pending settlement',
      3_000 + 2 * 500 + 10_000,
    );
    expect(await chainTxs()).toBe(txsBefore + 1);
    await matches('settlement_pending', txHash);

    // The node mines: the status route follows it to settled, with the same hash.
    await chain.provider.send('evm_mine', []);
    await chain.provider.send('evm_setAutomine', [true]);
    await waitFor(
      async () => (await status(txHash)).body.data?.payments[0].status === 'settled',
      'the status route to say settled',
      3_000 + 2 * 500 + 15_000,
    );
    await matches('settled', txHash);
    const done = await api.request('GET', `/api/v1/execute/${requestId}`, { headers: { [h.name]: h.value } });
    expect(done.body.data).toMatchObject({
      status: 'completed',
      settlement: { status: 'settled', txHash },
      output: { translation: expect.any(String) },
    });
    const replayed = await execute(h, input);
    expect(replayed.body.data).toMatchObject({
      settlement: { status: 'settled', txHash },
      output: done.body.data.output,
    });
    // The charge stored the final receipt: settled by that transaction, binding the output now shown.
    const final = await api.request('POST', '/api/v1/receipts/verify', {
      body: { receipt: done.body.data.receipt, output: done.body.data.output, input, salt: done.body.data.receiptSalt },
    });
    expect(final.body.data).toMatchObject({ valid: true, payload: { settlementPending: false, transaction: txHash } });

    // One transfer moved the money, once; one charge.
    expect((await chain.provider.getTransactionReceipt(txHash))?.status).toBe(1);
    expect(await chain.balanceOf(payer.address)).toBe(0n);
    expect(await relayerSent()).toBe(sentBefore + 1);
    expect(await chainTxs()).toBe(txsBefore + 1);
    expect(await executionCounts(ds)).toEqual({ ...before, charges: before.charges + 1 });
  }, 90_000);

  it('leaves a ledger that `ledger:check` passes', async () => {
    const check = startProcess(builtApp('ops'), { DATABASE_URL: api.databaseUrl, LOG_LEVEL: 'silent' }, [
      'ledger:check',
    ]);
    expect(await check.exited).toBe(0);
    expect(check.output()).toMatch(/ledger check passed/);
  });
});
