import { Wallet } from 'ethers';
import { FaultInjector } from '@app/common';
import type { LocalChain } from '../../scripts/local-chain';
import { TEST_PG_ADMIN_URL } from '../setup/test-env';
import type { ApiHarness } from '../support/api-harness';
import { EvmStack, startEvmStack } from '../support/evm-stack';
import { agentPayload, REGISTRATION_FEE_MICROS } from '../support/factories';
import { PgProxy, startPgProxy } from '../support/pg-proxy';
import { waitFor } from '../support/processes';
import { withClient } from '../support/test-db';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const ROOT_COST = 11_000n; // the stack's agent's price with the platform fee
const BUDGET = 1_000_000n;
/** The worker refunds a fee or ends a chain (lease and bind grace 2 s, sweeps every 0.5 s) well within this. */
const RECOVERY_MS = 60_000;

/**
 * Issue 53, item 1, for the other paid paths: a registration whose fee settled and a chain root whose
 * payment was recorded, then Postgres lost (the api's, cut through a proxy at a fault point), answer 202
 * with where to read the payment, never 503 or 402. Once Postgres is back the worker finishes what was
 * written: the fee, no agent having been created, is refunded in full after REGISTRATION_BIND_GRACE_MS;
 * the chain, its root unrun, is settled, ended and refunded in full. The payer paid once, and got it back.
 */
describe('faults: a registration or chain root lost after its payment was written answers 202 (e2e)', () => {
  let stack: EvmStack;
  let chain: LocalChain;
  let api: ApiHarness;
  let proxy: PgProxy;
  let faults: FaultInjector;

  beforeAll(async () => {
    proxy = await startPgProxy(TEST_PG_ADMIN_URL);
    stack = await startEvmStack(
      {
        SETTLEMENT_LEASE_MS: '2000',
        REGISTRATION_BIND_GRACE_MS: '2000',
        MAINTENANCE_INTERVAL_MS: '500',
        DATABASE_POOL_SIZE: '4',
      },
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

  /** The payer's payment rows (purpose, nonce), read directly (not through the proxy). */
  const paymentRows = (payer: Wallet) =>
    withClient(api.databaseUrl, async (c) => {
      const r = await c.query(`SELECT purpose, nonce FROM payments WHERE payer = $1`, [payer.address.toLowerCase()]);
      return r.rows as { purpose: string; nonce: string }[];
    });
  /** The payer's payment rows, read directly (not through the proxy). */
  const paymentsOf = (payer: Wallet) =>
    withClient(api.databaseUrl, async (c) => {
      const r = await c.query(`SELECT purpose FROM payments WHERE payer = $1`, [payer.address.toLowerCase()]);
      return r.rows.map((x: { purpose: string }) => x.purpose);
    });
  async function funded(amount: bigint) {
    const payer = newWallet();
    await chain.mint(payer.address, amount * 2n);
    const h = await x402Header(payer, { amount, payTo: chain.platform.address, asset: chain.usdcAddress });
    return { payer, h };
  }
  /** At `point`, the api's connections are dropped and new ones refused, until the test restores them. */
  const cutAt = (point: string) => faults.onReach(point, async () => proxy.cut());

  it(
    'registration cut after its fee settled: 202 with the fee settled and its status URL; refunded in full',
    async () => {
      const { payer, h } = await funded(REGISTRATION_FEE_MICROS);
      cutAt('registration.after-settle');
      const res = await api.request('POST', '/api/v1/agents', {
        body: agentPayload(payer, { endpoints: { execution: stack.agentServer.url } }),
        headers: { [h.name]: h.value },
      });
      expect([res.status, res.body.error?.code]).toEqual([202, undefined]);
      const txHash = res.body.data.settlement.txHash as string;
      expect(res.body.data).toMatchObject({
        status: 'pending',
        agentId: expect.any(String),
        statusUrl: expect.stringContaining(`/api/v1/payments/status/${txHash}`),
        settlement: { status: 'settled', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
      });
      expect(res.headers.get('location')).toBe(res.body.data.statusUrl);
      expect(await chain.balanceOf(payer.address)).toBe(REGISTRATION_FEE_MICROS); // paid once

      proxy.restore();
      // No agent was created: after the bind grace the worker refunds the fee, read at the status URL.
      await waitFor(
        async () => (await api.request('GET', res.body.data.statusUrl)).body.data?.payments?.[0]?.status === 'refunded',
        'the fee refunded, at its status URL',
        RECOVERY_MS,
      );
      expect((await api.request('GET', `/api/v1/agents/${res.body.data.agentId}`)).status).toBe(404);
      await waitFor(
        async () => (await chain.balanceOf(payer.address)) === REGISTRATION_FEE_MICROS * 2n,
        'the refund sent on chain',
        RECOVERY_MS,
      );
      expect(await paymentsOf(payer)).toEqual(['registration']);
    },
    2 * RECOVERY_MS + 30_000,
  );

  /** A registration whose fee is cut at `point` (before its settlement is recorded): the 202 it answers. */
  async function registerCutAt(point: string) {
    const { payer, h } = await funded(REGISTRATION_FEE_MICROS);
    cutAt(point);
    const res = await api.request('POST', '/api/v1/agents', {
      body: agentPayload(payer, { endpoints: { execution: stack.agentServer.url } }),
      headers: { [h.name]: h.value },
    });
    expect([res.status, res.body.error?.code]).toEqual([202, undefined]);
    const nonce = (await paymentRows(payer))[0].nonce;
    expect(res.body.data).toEqual({
      status: 'pending',
      agentId: null,
      statusUrl: expect.stringMatching(
        new RegExp(`/api/v1/payments/status/${nonce}\\?payer=${payer.address.toLowerCase()}$`),
      ),
      settlement: { status: 'settlement_pending', txHash: null, livemode: expect.any(Boolean) },
      livemode: expect.any(Boolean),
    });
    expect(res.headers.get('location')).toBe(res.body.data.statusUrl);
    expect(res.headers.get('payment-response')).toBeNull();
    proxy.restore();
    return { payer, statusUrl: res.body.data.statusUrl as string };
  }
  const statusAt = async (url: string) => (await api.request('GET', url)).body.data?.payments?.[0]?.status;

  it(
    'registration cut after its fee was reserved: 202 by nonce; nothing moved, no agent; a new payment registers',
    async () => {
      const { payer, statusUrl } = await registerCutAt('registration.after-reserve');
      expect(await statusAt(statusUrl)).toBe('settlement_pending');
      expect(await chain.balanceOf(payer.address)).toBe(REGISTRATION_FEE_MICROS * 2n); // nothing moved
      // Past the bind grace the worker looks at the reservation: the chain says unused, so it is watched, never settled.
      await waitFor(async () => (await statusAt(statusUrl)) === 'failed', 'the reservation looked at', RECOVERY_MS);
      expect(await chain.balanceOf(payer.address)).toBe(REGISTRATION_FEE_MICROS * 2n);
      // The payer registers with a new authorization and pays once.
      const h = await x402Header(payer, {
        amount: REGISTRATION_FEE_MICROS,
        payTo: chain.platform.address,
        asset: chain.usdcAddress,
      });
      const again = await api.request('POST', '/api/v1/agents', {
        body: agentPayload(payer, { endpoints: { execution: stack.agentServer.url } }),
        headers: { [h.name]: h.value },
      });
      expect(again.status).toBe(201);
      expect(await chain.balanceOf(payer.address)).toBe(REGISTRATION_FEE_MICROS);
    },
    2 * RECOVERY_MS,
  );

  it(
    'registration cut after its fee moved on chain, before it was recorded: 202 by nonce; refunded in full',
    async () => {
      const { payer, statusUrl } = await registerCutAt('settlement.before-record');
      expect(await chain.balanceOf(payer.address)).toBe(REGISTRATION_FEE_MICROS); // it moved, once
      await waitFor(async () => (await statusAt(statusUrl)) === 'refunded', 'the fee refunded, by nonce', RECOVERY_MS);
      await waitFor(
        async () => (await chain.balanceOf(payer.address)) === REGISTRATION_FEE_MICROS * 2n,
        'the refund sent on chain',
        RECOVERY_MS,
      );
      expect((await paymentRows(payer)).map((r) => r.purpose)).toEqual(['registration']);
      const agents = await withClient(api.databaseUrl, (c) =>
        c.query(`SELECT id FROM agents WHERE wallet = $1`, [payer.address.toLowerCase()]),
      );
      expect(agents.rows).toEqual([]); // no agent behind the client's back
    },
    2 * RECOVERY_MS,
  );

  it(
    'chain root cut after its payment was recorded: 202 with the chain id; settled once, ended unrun, refunded',
    async () => {
      const { payer, h } = await funded(ROOT_COST + BUDGET);
      const calls = stack.agentServer.calls.length;
      cutAt('chain.after-record');
      const res = await api.request('POST', '/api/v1/execute', {
        body: {
          targetAgentId: stack.agentId,
          capabilityId: 'translate',
          input: { text: 'x' },
          chain: { budget: '1.00' },
        },
        headers: { [h.name]: h.value },
      });
      expect([res.status, res.body.error?.code]).toEqual([202, undefined]);
      const requestId = res.body.data.requestId as string;
      expect(res.body.data).toMatchObject({
        requestId: expect.stringMatching(/^req_/),
        status: 'pending',
        statusUrl: expect.stringContaining(`/api/v1/execute/${requestId}`),
        chainId: expect.any(String),
        settlement: { status: 'settlement_pending' },
      });
      expect(res.headers.get('location')).toBe(res.body.data.statusUrl);

      proxy.restore();
      // The root's claim runs out (as its process had died); the worker settles, funds, ends and refunds the chain.
      await withClient(api.databaseUrl, (c) =>
        c.query(`UPDATE executions SET locked_until = now() - interval '1 second' WHERE id = $1`, [requestId]),
      );
      const ended = await waitFor(
        async () => {
          const data = (await api.request('GET', `/api/v1/chains/${res.body.data.chainId}`)).body.data;
          return data?.refund?.refundId ? data : undefined;
        },
        'the chain to end with its refund',
        RECOVERY_MS,
      );
      expect(ended).toMatchObject({ status: 'failed', nodeCount: 0 });
      await waitFor(
        async () => (await chain.balanceOf(payer.address)) === (ROOT_COST + BUDGET) * 2n,
        'all of it refunded on chain',
        RECOVERY_MS,
      );
      expect(await paymentsOf(payer)).toEqual(['execution']);
      expect(stack.agentServer.calls.length).toBe(calls); // the root never ran
    },
    2 * RECOVERY_MS + 30_000,
  );
});
