import { Wallet } from 'ethers';
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
    // The agent fails this run (its default mode, not the input's: the retry runs the same input) and serves the retry.
    const mode = agentServer.defaultMode;
    agentServer.defaultMode = 'fail';
    const err = (await sdk
      .execute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'again' } })
      .catch((e: unknown) => e)
      .finally(() => (agentServer.defaultMode = mode))) as AgoraError;
    expect(err).toBeInstanceOf(ExecutionFailedError);
    expect(err.payment).toMatchObject({
      amount: '0.011000',
      header: { name: 'PAYMENT-SIGNATURE', value: expect.any(String) },
    });
    const requestId = err.details.requestId as string;
    expect((await sdk.getExecution(requestId, err.payment!.header)).status).toBe('failed');
    // The calls of this run that reached the agent (a loopback server): one so far.
    const attempts = () => agentServer.calls.filter((c) => c.json.requestId === requestId).length;
    expect(attempts()).toBe(1);
    const retried = await sdk.retryExecution(requestId, err.payment!.header);
    expect(retried).toMatchObject({ requestId, status: 'completed', output: { translation: 'AGAIN' } });
    expect(attempts()).toBe(2);
    // The retry ran on the stored authorization: nothing signed again.
    expect(sdk.spending.spent).toBe('0.011000');
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
