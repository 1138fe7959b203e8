import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import {
  AgoraClient,
  AgoraError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  ExecutionFailedError,
  ForbiddenError,
  InputSchemaError,
  NotFoundError,
  PaymentRefusedError,
  RateLimitedError,
  SpendCapExceededError,
  ValidationError,
} from '@agora/sdk';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { agentPayload, capabilityPayload } from '../support/factories';
import { seedCharge } from '../support/money';
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
    expect((await sdk.getExecution(result.requestId)).output).toBeUndefined();
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

  it('refuses a 402 that asks for another token or a malformed amount, signing nothing (a hostile or tampered server)', async () => {
    const { createServer } = await import('node:http');
    let paidRequests = 0;
    const asks = [
      { asset: '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599', amount: '1000' }, // WBTC-like: 1000 units passes any "1.00" cap
      { asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', amount: '-5' },
    ];
    let ask = asks[0];
    const hostile = createServer((req, res) => {
      if (req.headers['payment-signature'] || req.headers['x-payment']) paidRequests++;
      const required = {
        x402Version: 2,
        resource: { url: 'http://hostile/api/v1/execute' },
        accepts: [
          {
            scheme: 'exact',
            network: 'eip155:84532',
            payTo: newWallet().address,
            maxTimeoutSeconds: 300,
            extra: { name: 'USDC', version: '2' },
            ...ask,
          },
        ],
      };
      res.writeHead(402, {
        'content-type': 'application/json',
        'PAYMENT-REQUIRED': Buffer.from(JSON.stringify(required)).toString('base64'),
      });
      res.end(JSON.stringify({ success: false, error: { code: 'PAYMENT_REQUIRED', message: 'pay' } }));
    });
    await new Promise<void>((r) => hostile.listen(0, '127.0.0.1', () => r()));
    try {
      const sdk = new AgoraClient({
        baseUrl: `http://127.0.0.1:${(hostile.address() as { port: number }).port}`,
        wallet: newWallet(),
      });
      for (ask of asks) {
        const err = await sdk
          .execute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'x' } })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PaymentRefusedError);
        expect(err).toMatchObject({ code: 'PAYMENT_NOT_ALLOWED', details: { asset: ask.asset, amount: ask.amount } });
      }
      expect(paidRequests).toBe(0);
      expect(sdk.spending.spent).toBe('0.000000');
    } finally {
      hostile.closeAllConnections();
      await new Promise((r) => hostile.close(r));
    }
  });

  it('keeps the header that paid on an error after payment: the payer can read the failed run and retry it', async () => {
    const sdk = client();
    const err = (await sdk
      .execute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'x', mode: 'fail' } })
      .catch((e: unknown) => e)) as AgoraError;
    expect(err).toBeInstanceOf(ExecutionFailedError);
    expect(err.payment).toMatchObject({
      amount: '0.011000',
      header: { name: 'PAYMENT-SIGNATURE', value: expect.any(String) },
    });
    const requestId = err.details.requestId as string;
    expect((await sdk.getExecution(requestId, err.payment!.header)).status).toBe('failed');
  });

  it("withdraws the owner's earnings with a wallet-signed request, and reads balance and history", async () => {
    await seedCharge(api.app, { agentId, agentFee: 3_000_000n, reputation: 90 });
    const sdk = new AgoraClient({ baseUrl: api.baseUrl, wallet: owner });
    const before = await sdk.payments.balance(agentId);
    const destination = newWallet().address;
    const withdrawal = await sdk.payments.withdraw(agentId, '2.00', destination);
    expect(withdrawal).toMatchObject({
      withdrawalId: expect.stringMatching(/^wd_/),
      amount: '2.000000',
      fee: '0.100000',
    });
    const done = await waitFor(async () => {
      const w = await sdk.payments.withdrawal(withdrawal.withdrawalId);
      return w.status === 'completed' ? w : undefined;
    }, 'the withdrawal to complete');
    expect(done.destination_wallet.toLowerCase()).toBe(destination.toLowerCase());
    const after = await sdk.payments.balance(agentId);
    expect(Number(before.available) - Number(after.available)).toBeCloseTo(2, 6);
    expect((await sdk.payments.history(agentId)).length).toBeGreaterThan(0);
    // The agent's events, signed: the withdrawal's completion among them, paged by the cursor.
    const events = await sdk.webhooks.events(agentId, { limit: 100 });
    const completed = events.events.find((e) => e.type === 'withdrawal.completed');
    expect(completed).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      data: expect.objectContaining({ withdrawalId: withdrawal.withdrawalId }),
    });
    expect(await sdk.webhooks.events(agentId, { after: events.nextCursor! })).toEqual({
      events: [],
      nextCursor: events.nextCursor,
    });
    const stranger = (await client()
      .webhooks.events(agentId)
      .catch((e: unknown) => e)) as AgoraError;
    expect([401, 403]).toContain(stranger.status);
  });

  it('maps every failure to its typed exception, with the envelope code and details', async () => {
    const sdk = client();
    const expectError = async (
      p: Promise<unknown>,
      Class: new (...a: never[]) => AgoraError,
      code: string,
      status: number,
    ) => {
      const err = await p.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Class);
      expect(err).toMatchObject({ code, status });
      return err as AgoraError;
    };
    await expectError(sdk.getAgent('00000000-0000-4000-8000-000000000000'), NotFoundError, 'AGENT_NOT_FOUND', 404);
    const invalid = await expectError(
      sdk.discovery.discover({ limit: 1000 }),
      ValidationError,
      'VALIDATION_ERROR',
      400,
    );
    expect(invalid.details.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'limit' })]));
    await expectError(sdk.updateAgent(agentId, { name: 'Not mine' }), ForbiddenError, 'FORBIDDEN', 403);
    await expectError(
      new AgoraClient({ baseUrl: api.baseUrl, wallet: owner }).payments.withdraw(
        agentId,
        '5000.00',
        newWallet().address,
      ),
      ConflictError,
      'INSUFFICIENT_BALANCE',
      409,
    );
    await expectError(
      sdk.execute({ targetAgentId: agentId, capabilityId: 'translate', input: { wrong: 1 } }),
      InputSchemaError,
      'INPUT_SCHEMA_MISMATCH',
      422,
    );
    const failed = await expectError(
      sdk.execute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'x', mode: 'fail' } }),
      ExecutionFailedError,
      'EXECUTION_FAILED',
      502,
    );
    expect(failed.details.agentError).toBeDefined();
    await expectError(
      sdk.execute({
        targetAgentId: agentId,
        capabilityId: 'translate',
        input: { text: 'x' },
        chainToken: 'not.a-token',
      }),
      AuthenticationError,
      'CHAIN_TOKEN_INVALID',
      401,
    );
    const closed = new AgoraClient({ baseUrl: `http://127.0.0.1:${await freePort()}` });
    await expectError(closed.discovery.discover(), ConnectionError, 'CONNECTION_FAILED', 0);
  });

  it('carries Retry-After on RATE_LIMITED', async () => {
    const limited = await startApi({ RATE_LIMIT_READS_PER_MIN: '2' });
    try {
      const sdk = new AgoraClient({ baseUrl: limited.baseUrl, retry: false });
      await sdk.discovery.discover();
      await sdk.discovery.discover();
      const err = await sdk.discovery.discover().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RateLimitedError);
      expect((err as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('needs a wallet to pay or sign, and says so', async () => {
    const anonymous = new AgoraClient({ baseUrl: api.baseUrl });
    await expect(
      anonymous.execute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'x' } }),
    ).rejects.toThrow(/needs a wallet/);
    expect(capabilityPayload().id).toBe('translate');
  });
});
