import { Wallet } from 'ethers';
import { FaultInjector } from '@app/common';
import type { LocalChain } from '../../scripts/local-chain';
import { TEST_PG_ADMIN_URL } from '../setup/test-env';
import type { ApiHarness } from '../support/api-harness';
import { clientSignature } from '../support/disputes';
import { EvmStack, startEvmStack } from '../support/evm-stack';
import { PgProxy, startPgProxy } from '../support/pg-proxy';
import { waitFor } from '../support/processes';
import { withClient } from '../support/test-db';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;
/** The worker finishes what a cut-off request left (lease 2 s, sweeps every 0.5 s) well within this. */
const RECOVERY_MS = 45_000;

/**
 * Issue 53, item 1: once a payment may have moved, no answer invites paying again. The api reaches
 * Postgres through a proxy the test cuts at a fault point of a keyless evm-mode POST /execute (the
 * worker and the test read directly). Cut after the payment's first write (before its settlement, or
 * after it was mined): 202 with the request id, the payment's state and the status URL, never 503 or
 * 402; once Postgres is back the worker settles and charges it, the payer reads status and output by
 * the request id (signature, or the payment header), a keyless retry of the same header and body is
 * answered as that execution, a retry with other input is refused, and the payer paid exactly once.
 * Cut before the first write: a retryable 503, nothing moved, and the same header then pays one run.
 */
describe('faults: Postgres lost after the payment was written answers 202, never "pay again" (e2e)', () => {
  let stack: EvmStack;
  let chain: LocalChain;
  let api: ApiHarness;
  let proxy: PgProxy;
  let faults: FaultInjector;

  beforeAll(async () => {
    proxy = await startPgProxy(TEST_PG_ADMIN_URL);
    stack = await startEvmStack(
      { SETTLEMENT_LEASE_MS: '2000', MAINTENANCE_INTERVAL_MS: '500', DATABASE_POOL_SIZE: '4' },
      { databaseUrlFor: (url) => proxy.url(url) },
    );
    ({ chain, api } = stack);
    faults = api.app.get(FaultInjector);
  }, 90_000);
  afterEach(() => {
    faults.disarm();
    proxy.restore();
  });
  afterAll(async () => {
    await stack?.stop();
    await proxy?.close();
  });

  const body = (text: string) => ({ targetAgentId: stack.agentId, capabilityId: 'translate', input: { text } });
  const execute = (h: { name: string; value: string }, text: string) =>
    api.request('POST', '/api/v1/execute', { body: body(text), headers: { [h.name]: h.value } });
  /** The payer's rows, read directly (not through the proxy). */
  const paymentsOf = (payer: Wallet) =>
    withClient(api.databaseUrl, async (c) => {
      const r = await c.query(`SELECT status FROM payments WHERE payer = $1`, [payer.address.toLowerCase()]);
      return r.rows.map((x: { status: string }) => x.status);
    });
  const chargesOf = (requestId: string) =>
    withClient(api.databaseUrl, async (c) => {
      const r = await c.query(
        `SELECT count(*)::int AS n FROM transactions t JOIN executions e ON e.transaction_id = t.id WHERE e.id = $1`,
        [requestId],
      );
      return r.rows[0].n as number;
    });
  async function fundedPayer() {
    const payer = newWallet();
    await chain.mint(payer.address, PRICE * 2n);
    const h = await x402Header(payer, { amount: PRICE, payTo: chain.platform.address, asset: chain.usdcAddress });
    return { payer, h };
  }
  /** At `point`, the api's connections are dropped and new ones refused, until the test restores them. */
  const cutAt = (point: string) => faults.onReach(point, async () => proxy.cut());

  it.each([
    ['charge.after-reserve', 'settlement_pending'],
    ['charge.after-settle', 'settled'],
  ])(
    'cut at %s: 202 with the request id and %s; later settled once, read and replayed by the payer',
    async (point, state) => {
      const { payer, h } = await fundedPayer();
      cutAt(point);
      const first = await execute(h, `cut ${point}`);
      expect([first.status, first.body.error?.code]).toEqual([202, undefined]);
      const requestId = first.body.data.requestId as string;
      expect(first.body.data).toMatchObject({
        requestId: expect.stringMatching(/^req_/),
        jobId: requestId,
        status: 'pending',
        statusUrl: expect.stringContaining(`/api/v1/execute/${requestId}`),
        settlement: { status: state },
      });
      expect(first.headers.get('location')).toBe(first.body.data.statusUrl);
      if (state === 'settled') expect(first.body.data.settlement.txHash).toMatch(/^0x[0-9a-f]{64}$/);

      proxy.restore();
      // The worker settles (or links) and charges what was written; the payer reads it by the request id.
      const signed = async () =>
        api.request('GET', first.body.data.statusUrl, { headers: await clientSignature(payer, payer.address) });
      const done = await waitFor(
        async () => ((await signed()).body.data?.output ? (await signed()).body.data : undefined),
        'the output, read by the request id with the payer signature',
        RECOVERY_MS,
      );
      expect(done).toMatchObject({
        requestId,
        status: 'completed',
        settlement: { status: 'settled' },
        output: { translation: expect.any(String) },
      });
      const byHeader = await api.request('GET', `/api/v1/execute/${requestId}`, { headers: { [h.name]: h.value } });
      expect(byHeader.body.data).toMatchObject({ requestId, output: done.output });
      // A stranger reading the id gets no output.
      expect((await api.request('GET', `/api/v1/execute/${requestId}`)).body.data.output).toBeUndefined();

      // The client, still without a key, sends the same request again: that execution, charged once.
      const again = await execute(h, `cut ${point}`);
      expect([again.status, again.body.data?.requestId, again.body.data?.output]).toEqual([
        200,
        requestId,
        done.output,
      ]);
      // The same header with other input is still a used payment.
      const other = await execute(h, 'something else');
      expect([other.status, other.body.error?.code]).toEqual([409, 'PAYMENT_REPLAYED']);
      expect(other.body.error.details?.requestId).toBeUndefined();
      expect(JSON.stringify(other.body)).not.toContain(requestId);

      expect(await paymentsOf(payer)).toEqual(['settled']);
      expect(await chargesOf(requestId)).toBe(1);
      expect(await chain.balanceOf(payer.address)).toBe(PRICE); // minted twice the price, paid once
    },
    RECOVERY_MS + 30_000,
  );

  it('a keyless retry of a used header with the same body is that execution; one started with a key is not', async () => {
    const { payer, h } = await fundedPayer();
    const first = await execute(h, 'answer lost');
    expect(first.status).toBe(200);
    const again = await execute(h, 'answer lost');
    expect([again.status, again.body.data?.requestId]).toEqual([200, first.body.data.requestId]);
    expect(again.body.data).toMatchObject({
      output: first.body.data.output,
      transactionId: first.body.data.transactionId,
    });
    expect(await paymentsOf(payer)).toEqual(['settled']);
    expect(await chain.balanceOf(payer.address)).toBe(PRICE);
    // A keyed request is replayed by its key: its header (public on chain once settled) and input alone name nothing.
    const keyed = await fundedPayer();
    const withKey = await api.request('POST', '/api/v1/execute', {
      body: body('keyed'),
      headers: { [keyed.h.name]: keyed.h.value, 'Idempotency-Key': `k-${Date.now()}` },
    });
    expect(withKey.status).toBe(200);
    const keyless = await execute(keyed.h, 'keyed');
    expect([keyless.status, keyless.body.error?.code]).toEqual([409, 'PAYMENT_REPLAYED']);
    expect(JSON.stringify(keyless.body)).not.toContain(withKey.body.data.requestId);
  }, 60_000);

  it('cut before the first write: 503 to send again, nothing moved; the same header then pays one run', async () => {
    const { payer, h } = await fundedPayer();
    cutAt('charge.before-reserve');
    const first = await execute(h, 'cut before');
    expect([first.status, first.body.error?.code, first.headers.get('retry-after')]).toEqual([
      503,
      'SERVICE_UNAVAILABLE',
      '1',
    ]);
    expect(await paymentsOf(payer)).toEqual([]);
    proxy.restore();
    const sent = await waitFor(async () => {
      const r = await execute(h, 'cut before');
      return r.status === 200 ? r : undefined;
    }, 'the same header, sent again, answered');
    expect(sent.body.data).toMatchObject({ status: 'completed', settlement: { status: 'settled' } });
    expect(await paymentsOf(payer)).toEqual(['settled']);
    expect(await chain.balanceOf(payer.address)).toBe(PRICE);
  }, 60_000);
});
