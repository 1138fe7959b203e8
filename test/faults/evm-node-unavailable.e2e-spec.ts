import { Wallet } from 'ethers';
import { AgoraClient } from '@agora/sdk';
import { DataSource } from 'typeorm';
import { startChain, LocalChain } from '../../scripts/local-chain';
import { startApi, ApiHarness } from '../support/api-harness';
import { evmEnv } from '../support/evm-env';
import { TestAgentServer } from '../support/agent-server';
import { agentPayload, capabilityPayload, orchestrateCapability, REGISTRATION_FEE_MICROS } from '../support/factories';
import { GateMode, RpcGate } from '../support/rpc-gate';
import { seedCharge } from '../support/money';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

/** What the api waits for the node's reads before its first write (CHAIN_READ_TIMEOUT_MS), with room for the rest. */
const ANSWER_WITHIN_MS = 5_000;

/**
 * Issue 53, item 2: the chain's node slow, silent or unreachable while a paid request is admitted.
 * Before, the evm preflight waited for ethers' 10 s RPC timeout and answered 500 INTERNAL_ERROR (which
 * no client retries). Now every request that reads the chain before its first write (a paid execute,
 * a capability's x402 resource, a chain root, a registration) answers 503 SERVICE_UNAVAILABLE with
 * Retry-After within the read bound, writes nothing, and the same payment goes through once the node answers.
 */
describe('faults: the chain node slow, silent or unreachable before the first write (e2e)', () => {
  let chain: LocalChain;
  let gate: RpcGate;
  let agentServer: TestAgentServer;
  let api: ApiHarness;
  let ds: DataSource;
  let agentId: string;
  let rootId: string;

  beforeAll(async () => {
    chain = await startChain();
    gate = await new RpcGate(chain.rpcUrl).start();
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      ...evmEnv(chain),
      EVM_RPC_URL: gate.url,
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
    });
    ds = api.app.get(DataSource);
    agentId = await register([capabilityPayload()]);
    rootId = await register([orchestrateCapability()]);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await gate?.stop();
    await agentServer?.stop();
    await chain?.stop();
  });
  afterEach(() => gate.open());

  async function register(capabilities: Record<string, unknown>[]): Promise<string> {
    const res = await registration(await fundedWallet(REGISTRATION_FEE_MICROS), capabilities);
    if (res.status !== 201) throw new Error(`registration refused: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id;
  }

  async function registration(wallet: Wallet, capabilities: Record<string, unknown>[], header?: Header) {
    const pay = header ?? (await payment(wallet, REGISTRATION_FEE_MICROS));
    return api.request('POST', '/api/v1/agents', {
      body: agentPayload(wallet, { endpoints: { execution: agentServer.url }, capabilities }),
      headers: { [pay.name]: pay.value },
    });
  }

  type Header = Awaited<ReturnType<typeof x402Header>>;
  const payment = (wallet: Wallet, amount: bigint) =>
    x402Header(wallet, { amount, payTo: chain.platform.address, asset: chain.usdcAddress });

  async function fundedWallet(micros: bigint): Promise<Wallet> {
    const w = newWallet();
    await chain.mint(w.address, micros);
    return w;
  }

  /** The price the api asks for `path` with `body` (its 402 offer, which needs no chain). */
  async function priceOf(path: string, body: unknown): Promise<bigint> {
    const offer = await api.request('POST', path, { body });
    expect(offer.status).toBe(402);
    return BigInt(offer.body.accepts[0].maxAmountRequired);
  }

  /** Rows a payer's requests wrote anywhere money or work is recorded. */
  async function rowsOf(payer: string): Promise<number> {
    const [row] = await ds.query(
      `SELECT (SELECT count(*) FROM payments WHERE payer = lower($1))::int
            + (SELECT count(*) FROM chains WHERE lower(root_wallet) = lower($1))::int
            + (SELECT count(*) FROM executions WHERE payer = lower($1))::int AS n`,
      [payer],
    );
    return row.n;
  }

  /** The answer to `send` with the node in `mode`: 503 with Retry-After, in time, nothing written. */
  async function refusedWhile(
    mode: GateMode,
    payer: string,
    send: () => Promise<{ status: number; body: any; headers: Headers }>,
  ) {
    gate.mode = mode;
    const started = Date.now();
    const res = await send();
    const ms = Date.now() - started;
    expect([res.status, res.body.error?.code, res.headers.get('retry-after')]).toEqual([
      503,
      'SERVICE_UNAVAILABLE',
      '1',
    ]);
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    expect(await rowsOf(payer)).toBe(0);
    return res;
  }

  it.each<GateMode>(['silent', 'refuse'])(
    'a paid execute with the node %s answers 503 with Retry-After in time, writes nothing, and the same payment runs once the node answers',
    async (mode) => {
      const payer = await fundedWallet(1_000_000n);
      const body = { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'hello' } };
      const pay = await payment(payer, await priceOf('/api/v1/execute', body));
      const send = () => api.request('POST', '/api/v1/execute', { body, headers: { [pay.name]: pay.value } });
      await refusedWhile(mode, payer.address, send);
      expect(gate.methods).toContain('eth_call');

      gate.open();
      const res = await send();
      expect([res.status, res.body.data?.status]).toEqual([200, 'completed']);
      expect(res.body.data.settlement).toMatchObject({ txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    },
  );

  it("a capability's x402 resource and a chain root answer 503 with the node silent; nothing written", async () => {
    const payer = await fundedWallet(10_000_000n);
    const path = `/api/v1/agents/${agentId}/capabilities/translate/execute`;
    const resource = await payment(payer, await priceOf(path, { text: 'x' }));
    await refusedWhile('silent', payer.address, () =>
      api.request('POST', path, { body: { text: 'x' }, headers: { [resource.name]: resource.value } }),
    );
    const root = {
      targetAgentId: rootId,
      capabilityId: 'orchestrate',
      input: { calls: [] },
      chain: { budget: '0.10' },
    };
    const rootPay = await payment(payer, await priceOf('/api/v1/execute', root));
    await refusedWhile('silent', payer.address, () =>
      api.request('POST', '/api/v1/execute', { body: root, headers: { [rootPay.name]: rootPay.value } }),
    );
  });

  it("the SDK's paid execute, refused 503 while the node is silent, is sent again after Retry-After with the same payment: one run, paid once", async () => {
    const payer = await fundedWallet(1_000_000n);
    gate.mode = 'silent';
    const statuses: { status: number; at: number }[] = [];
    const client = new AgoraClient({
      baseUrl: api.baseUrl,
      wallet: payer.privateKey,
      allowedAssets: { 'eip155:84532': chain.usdcAddress },
      // Sees each answer as the SDK gets it; the node comes back once the api has refused the paid request.
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        statuses.push({ status: res.status, at: Date.now() });
        if (res.status === 503) gate.open();
        return res;
      },
    });
    const result = await client.execute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'sdk' } });
    expect(result).toMatchObject({ status: 'completed', paid: expect.any(String) });
    expect(statuses.map((s) => s.status)).toEqual([402, 503, 200]);
    expect(statuses[2].at - statuses[1].at).toBeGreaterThanOrEqual(950); // Retry-After: 1, honoured
    const [row] = await ds.query(`SELECT count(*)::int AS n FROM payments WHERE payer = lower($1)`, [payer.address]);
    expect(row.n).toBe(1);
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000n - BigInt(Math.round(Number(result.paid) * 1e6)));
  });

  it('a withdrawal request reads no chain: accepted at once with the node silent (its payout waits for the worker)', async () => {
    const owner = await fundedWallet(REGISTRATION_FEE_MICROS);
    const reg = await registration(owner, [capabilityPayload()]);
    expect(reg.status).toBe(201);
    await seedCharge(api.app, { agentId: reg.body.data.id, agentFee: 2_000_000n, reputation: 90 });
    gate.mode = 'silent';
    const started = Date.now();
    const res = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId: reg.body.data.id, amount: '1.000000', destinationWallet: newWallet().address },
      headers: await walletHeaders(owner, reg.body.data.id, 'POST /api/v1/payments/withdraw'),
    });
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('a registration with the node unreachable answers 503 and creates nothing; the same payment registers once it answers', async () => {
    const owner = await fundedWallet(REGISTRATION_FEE_MICROS);
    const pay = await payment(owner, REGISTRATION_FEE_MICROS);
    await refusedWhile('refuse', owner.address, () => registration(owner, [capabilityPayload()], pay));
    expect(await ds.query(`SELECT 1 FROM agents WHERE lower(wallet) = lower($1)`, [owner.address])).toEqual([]);
    gate.open();
    const res = await registration(owner, [capabilityPayload()], pay);
    expect(res.status).toBe(201);
    expect(await chain.balanceOf(owner.address)).toBe(0n);
  });
});
