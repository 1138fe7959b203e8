import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import {
  AgoraClient,
  AgoraError,
  ConflictError,
  NotFoundError,
  SpendCapExceededError,
  ValidationError,
} from '@agora/sdk';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { agentPayload } from '../support/factories';
import { freePort } from '../support/ports';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet } from '../support/wallets';

/**
 * The SDK (libs/sdk) against the real api on loopback (local settlement) and a worker process:
 * register, discover, execute sync and async, read output, withdraw; every failure as its typed
 * error; the spend caps refusing before anything is signed.
 */
describe('SDK against the real api (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let worker: RunningProcess;
  let owner: Wallet;
  let agentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_AGENT_PER_MIN: '1000000',
      RATE_LIMIT_READS_PER_MIN: '1000000',
    });
    ds = api.app.get(DataSource);
    worker = startProcess(builtApp('worker'), { ...api.env, LOG_LEVEL: 'warn' });
    owner = newWallet();
    const sdk = new AgoraClient({ baseUrl: api.baseUrl, wallet: owner });
    const { wallet: _wallet, ...registration } = agentPayload(owner, {
      name: 'SDK Translator',
      endpoints: { execution: agentServer.url },
    });
    const agent = await sdk.registerAgent(registration as Parameters<AgoraClient['registerAgent']>[0]);
    agentId = agent.id;
    expect(agent).toMatchObject({ name: 'SDK Translator', wallet: owner.address, status: 'active' });
    expect(sdk.spending).toEqual({ spent: '0.100000', remaining: '9.900000' });
  }, 60_000);
  afterAll(async () => {
    worker.child.kill('SIGTERM');
    await worker.exited;
    await api.close();
    await agentServer.stop();
  });

  const client = (o: Partial<ConstructorParameters<typeof AgoraClient>[0]> = {}) =>
    new AgoraClient({ baseUrl: api.baseUrl, wallet: newWallet(), ...o });
  const paymentsBy = async (wallet: string) =>
    (await ds.query(`SELECT count(*)::int AS n FROM payments WHERE payer = $1`, [wallet.toLowerCase()]))[0].n as number;

  it('discovers and recommends the agent, typed', async () => {
    const sdk = client();
    const found = await sdk.discovery.discover({ capability: 'translate' });
    expect(found.agents.map((a) => a.id)).toContain(agentId);
    const recommended = await sdk.discovery.recommend('translate text to french');
    expect(recommended.recommendations.map((r) => r.agent.id)).toContain(agentId);
    expect((await sdk.getAgent(agentId)).capabilities[0].id).toBe('translate');
  });

  it('executes sync, paying the price with @x402/fetch: output, cost, transaction, and the header that paid', async () => {
    const sdk = client();
    const result = await sdk.execute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'bonjour' } });
    expect(result).toMatchObject({
      status: 'completed',
      output: { translation: 'BONJOUR' },
      transactionId: expect.stringMatching(/^tx_/),
      paid: '0.011000',
    });
    expect(result.payment?.name).toBe('PAYMENT-SIGNATURE');
    expect(sdk.spending.spent).toBe('0.011000');
    // The header is the payer's proof: the output can be read again with it, and not without.
    expect((await sdk.getExecution(result.requestId, result.payment)).output).toEqual({ translation: 'BONJOUR' });
    expect((await sdk.getExecution(result.requestId, null)).output).toBeUndefined();
    // Without a header the SDK signs as its wallet (issue 52): the payer reads its output, another wallet does not.
    expect((await sdk.getExecution(result.requestId)).output).toEqual({ translation: 'BONJOUR' });
    const other = new AgoraClient({ baseUrl: api.baseUrl, wallet: Wallet.createRandom().privateKey });
    expect((await other.getExecution(result.requestId)).output).toBeUndefined();
  });

  it('pays once for a key sent twice (the Idempotency-Key header): the same requestId, one charge; other input is a ConflictError', async () => {
    const wallet = newWallet();
    const sdk = client({ wallet });
    const charges = async () =>
      (
        await ds.query(`SELECT count(*)::int AS n FROM transactions WHERE lower(payer_wallet) = lower($1)`, [
          wallet.address,
        ])
      )[0].n as number;
    const first = await sdk.execute({
      targetAgentId: agentId,
      capabilityId: 'translate',
      input: { text: 'une fois' },
      idempotencyKey: 'sdk-key-1',
    });
    const again = await sdk.execute({
      targetAgentId: agentId,
      capabilityId: 'translate',
      input: { text: 'une fois' },
      idempotencyKey: 'sdk-key-1',
    });
    expect(again).toMatchObject({
      requestId: first.requestId,
      transactionId: first.transactionId,
      output: { translation: 'UNE FOIS' },
    });
    expect(await charges()).toBe(1);
    const conflict = await sdk
      .execute({
        targetAgentId: agentId,
        capabilityId: 'translate',
        input: { text: 'autre' },
        idempotencyKey: 'sdk-key-1',
      })
      .catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect((conflict as ConflictError).code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await charges()).toBe(1);
  });

  it('executes async: accepted with 202, run by the worker, awaited by polling with backoff', async () => {
    const sdk = client({ polling: { initialMs: 50, maxMs: 200, timeoutMs: 30_000 } });
    const result = await sdk.execute({
      targetAgentId: agentId,
      capabilityId: 'translate',
      input: { text: 'plus tard' },
      async: true,
    });
    expect(result).toMatchObject({ status: 'completed', output: { translation: 'PLUS TARD' }, paid: '0.011000' });
    const accepted = await sdk.execute({
      targetAgentId: agentId,
      capabilityId: 'translate',
      input: { text: 'sans attendre' },
      async: true,
      wait: false,
    });
    expect(accepted).toMatchObject({ status: 'pending' });
    const requestId = (accepted as unknown as { jobId: string }).jobId;
    expect((await sdk.waitForExecution(requestId, accepted.payment)).output).toEqual({ translation: 'SANS ATTENDRE' });
  });

  it('retries a paid execute whose connection dropped after the server charged: the same key and payment resent, charged once', async () => {
    const wallet = newWallet();
    const sent: { key: string | null; payment: string }[] = [];
    const dropAfterCharge = async (request: Request) => {
      const payment = request.headers.get('payment-signature');
      const response = await fetch(request);
      if (payment === null) return response;
      sent.push({ key: request.headers.get('idempotency-key'), payment });
      if (sent.length > 1) return response;
      await response.arrayBuffer(); // the API answered (and charged): the answer is lost on the way
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
    };
    const sdk = client({ wallet, fetch: dropAfterCharge as typeof fetch, retry: { attempts: 3, baseDelayMs: 1 } });
    const calls = agentServer.calls.length;
    const result = await sdk.execute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'encore' } });
    expect(result).toMatchObject({ status: 'completed', output: { translation: 'ENCORE' }, paid: '0.011000' });
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(sent[0].key).toMatch(/^[0-9a-f-]{36}$/);
    expect(await paymentsBy(wallet.address)).toBe(1);
    const [{ n }] = await ds.query(
      `SELECT count(*)::int AS n FROM transactions WHERE lower(payer_wallet) = lower($1)`,
      [wallet.address],
    );
    expect(n).toBe(1);
    expect(agentServer.calls.length - calls).toBe(1);
    expect(sdk.spending.spent).toBe('0.011000');
  });

  it('keeps the payment and the key on a paid call that timed out: read with the proof, or executed again with the key, it is charged once', async () => {
    const wallet = newWallet();
    const calls = agentServer.calls.length;
    const sdk = client({ wallet, timeout: 500, retry: false });
    const err = (await sdk
      .execute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'lent', mode: 'slow' } })
      .catch((e: unknown) => e)) as AgoraError;
    expect(err).toMatchObject({
      code: 'REQUEST_TIMEOUT',
      payment: { header: { name: 'PAYMENT-SIGNATURE' }, amount: '0.011000' },
      idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    // The run went on without the caller; once it is done, the same key answers it and nothing more is charged.
    await waitFor(async () => {
      const [row] = await ds.query(`SELECT status FROM executions WHERE payer = $1`, [wallet.address.toLowerCase()]);
      return row?.status === 'completed' ? row : undefined;
    }, 'the first run to complete');
    const again = client({ wallet });
    const done = await again.execute({
      targetAgentId: agentId,
      capabilityId: 'translate',
      input: { text: 'lent', mode: 'slow' },
      idempotencyKey: err.idempotencyKey,
    });
    expect(done).toMatchObject({ status: 'completed', output: { translation: 'late' } });
    expect(await paymentsBy(wallet.address)).toBe(1);
    expect(agentServer.calls.length - calls).toBe(1);
    expect((await again.getExecution(done.requestId, err.payment!.header)).output).toEqual({ translation: 'late' });
  });

  it("gives every error the API's request id (the body's, which X-Request-ID echoes), and none to one without an answer", async () => {
    const ids: string[] = [];
    const recording = async (request: Request) => {
      const response = await fetch(request);
      ids.push(response.headers.get('x-request-id') ?? '');
      return response;
    };
    const sdk = client({ fetch: recording as typeof fetch });
    const missing = (await sdk.getAgent('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e)) as AgoraError;
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(missing.requestId).toBe(ids.at(-1));
    const unpaid = (await new AgoraClient({ baseUrl: api.baseUrl }).discovery
      .discover({ limit: 1000 })
      .catch((e: unknown) => e)) as AgoraError;
    expect(unpaid).toBeInstanceOf(ValidationError);
    expect(unpaid.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const closed = new AgoraClient({ baseUrl: `http://127.0.0.1:${await freePort()}`, retry: false });
    expect(((await closed.discovery.discover().catch((e: unknown) => e)) as AgoraError).requestId).toBeNull();
  });

  it('refuses a call above the per-call cap before anything is signed: nothing sent with a payment, nothing charged', async () => {
    const wallet = newWallet();
    const sdk = client({ wallet, spendCap: { perCall: '0.010000', perSession: '1.00' } });
    const calls = agentServer.calls.length;
    const err = await sdk
      .execute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'trop cher' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpendCapExceededError);
    expect(err).toMatchObject({
      code: 'SPEND_CAP_EXCEEDED',
      status: 0,
      details: { amount: '0.011000', perCall: '0.010000' },
    });
    expect(sdk.spending.spent).toBe('0.000000');
    expect(await paymentsBy(wallet.address)).toBe(0);
    expect(agentServer.calls.length).toBe(calls);
    // A lower cap for one call refuses too.
    const roomy = client({ spendCap: { perCall: '1.00', perSession: '1.00' } });
    await expect(
      roomy.execute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'x' }, maxPayment: '0.005' }),
    ).rejects.toBeInstanceOf(SpendCapExceededError);
  });

  it('stops at the session cap: the second call would pass it and is refused unsigned', async () => {
    const wallet = newWallet();
    const sdk = client({ wallet, spendCap: { perCall: '0.05', perSession: '0.02' } });
    await sdk.execute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'un' } });
    const err = await sdk
      .execute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'deux' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpendCapExceededError);
    expect((err as AgoraError).details).toMatchObject({ perSession: '0.020000', spent: '0.011000' });
    expect(await paymentsBy(wallet.address)).toBe(1);
  });

  it('holds the session cap under concurrent calls: of 5 at once with room for 2, exactly 2 are paid', async () => {
    const wallet = newWallet();
    const sdk = client({ wallet, spendCap: { perCall: '0.05', perSession: '0.03' } });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        sdk.execute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: `race ${i}` } }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    expect(outcomes.filter((o) => o.status === 'rejected' && o.reason instanceof SpendCapExceededError)).toHaveLength(
      3,
    );
    expect(await paymentsBy(wallet.address)).toBe(2);
    expect(sdk.spending).toEqual({ spent: '0.022000', remaining: '0.008000' });
  });
});
