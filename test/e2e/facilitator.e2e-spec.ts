import { keccak256, toUtf8Bytes } from 'ethers';
import { DataSource } from 'typeorm';
import { AppException, FixedClock } from '@app/common';
import { AuthorizePayment, PLATFORM_FEE, SettlePayment } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { agentPayload, registerAgent, REGISTRATION_FEE_MICROS } from '../support/factories';
import { cdpKey, TestFacilitator } from '../support/facilitator-server';
import { startApiProcess } from '../support/api-process';
import { newWallet } from '../support/wallets';
import { decodePaymentResponse, x402Header } from '../support/x402';
import { DEV_PLATFORM_WALLET } from '@app/config';
import { TEST_SEEDS } from '../support/evm-env';

/** One call to a process started here, as the harness makes it. */
async function requestTo(
  baseUrl: string,
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(opts.headers ?? {}) },
    body: JSON.stringify(opts.body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const SECRET = 'Bearer fac-secret-0123456789';
const REQUIRED = { header: 'authorization', value: SECRET };

/** SETTLEMENT_MODE=facilitator against a facilitator speaking the x402 v2 API on loopback that requires a credential. */
describe('facilitator settlement (e2e)', () => {
  let facilitator: TestFacilitator;
  let agentServer: TestAgentServer;
  let api: ApiHarness;
  let ds: DataSource;
  const clock = new FixedClock(new Date());
  const env = (url: string, extra: Record<string, string> = {}) => ({
    SETTLEMENT_MODE: 'facilitator',
    PLATFORM_WALLET: DEV_PLATFORM_WALLET,
    ...TEST_SEEDS,
    FACILITATOR_URL: url,
    FACILITATOR_AUTH_HEADERS: `Authorization: ${SECRET}`,
    OUTBOUND_ALLOW_HTTP: 'true',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    ...extra,
  });

  beforeAll(async () => {
    facilitator = await new TestFacilitator().start();
    agentServer = await new TestAgentServer().start();
    api = await startApi(env(facilitator.url), { clock });
    ds = api.app.get(DataSource);
  });
  afterAll(async () => {
    await api.close();
    await facilitator.stop();
    await agentServer.stop();
  });
  beforeEach(() => {
    facilitator.calls.length = 0;
    facilitator.verify = 'ok';
    facilitator.settle = 'ok';
    facilitator.auth = REQUIRED;
  });

  const register = async (wallet = newWallet()) => {
    const h = await x402Header(wallet, { amount: REGISTRATION_FEE_MICROS, payTo: api.config.platformWallet });
    return {
      wallet,
      h,
      res: await api.request('POST', '/api/v1/agents', { body: agentPayload(wallet), headers: { [h.name]: h.value } }),
    };
  };
  const agents = async () => (await ds.query(`SELECT count(*)::int AS n FROM agents`))[0].n as number;

  const v2Body = (from: string, amount: string) => {
    const requirements = {
      scheme: 'exact',
      network: 'eip155:84532',
      amount,
      payTo: api.config.platformWallet,
      maxTimeoutSeconds: 300,
      extra: { name: 'USDC', version: '2' },
    };
    return {
      x402Version: 2,
      paymentPayload: { x402Version: 2, accepted: requirements, payload: { authorization: { from, value: amount } } },
      paymentRequirements: requirements,
    };
  };

  it('verifies, then settles through the facilitator as x402 v2 with its credential, and answers its transaction', async () => {
    const { wallet, h, res } = await register();
    expect(res.status).toBe(201);
    expect(facilitator.calls.map((c) => c.path)).toEqual(['/verify', '/settle']);
    expect(facilitator.calls.map((c) => c.headers.authorization)).toEqual([SECRET, SECRET]);
    expect(facilitator.calls[0].body).toMatchObject(v2Body(wallet.address, '100000'));
    expect(facilitator.calls[1].body).toMatchObject(v2Body(wallet.address, '100000'));
    const expectedTx = keccak256(toUtf8Bytes(`settled:${h.nonce}`));
    expect(decodePaymentResponse(res.headers.get('x-payment-response')).transaction).toBe(expectedTx);
    const [row] = await ds.query(`SELECT status, tx_hash FROM payments WHERE payer = $1`, [
      wallet.address.toLowerCase(),
    ]);
    expect(row).toEqual({ status: 'settled', tx_hash: expectedTx });
  });

  it.each([1, 2] as const)(
    'settles a paid execute (a v%s client) through the facilitator with the credential and a v2 body',
    async (version) => {
      const provider = await registerAgent(api, newWallet(), { endpoints: { execution: agentServer.url } });
      expect(provider.status).toBe(201);
      const client = newWallet();
      const h = await x402Header(client, { amount: 11_000n, payTo: api.config.platformWallet, version });
      facilitator.calls.length = 0;
      const res = await api.request('POST', '/api/v1/execute', {
        body: { targetAgentId: provider.body.data.id, capabilityId: 'translate', input: { text: 'bonjour' } },
        headers: { [h.name]: h.value },
      });
      expect(res.status).toBe(200);
      expect(facilitator.calls.map((c) => [c.path, c.headers.authorization])).toEqual([
        ['/verify', SECRET],
        ['/settle', SECRET],
      ]);
      expect(facilitator.calls[1].body).toMatchObject(v2Body(client.address, '11000'));
      const [row] = await ds.query(`SELECT status, tx_hash FROM payments WHERE payer = $1`, [
        client.address.toLowerCase(),
      ]);
      expect(row).toEqual({ status: 'settled', tx_hash: keccak256(toUtf8Bytes(`settled:${h.nonce}`)) });
    },
  );

  it.each([
    ['a wrong credential', { header: 'authorization', value: 'Bearer another-secret' }],
    ['no credential it knows', { header: 'x-api-key', value: 'k' }],
  ])('fails cleanly with %s: 502, nothing charged, the secret nowhere in the answer', async (_label, required) => {
    facilitator.auth = required;
    const before = await agents();
    const { wallet, res } = await register();
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ code: 'SETTLEMENT_FAILED', details: { reason: 'unexpected_verify_error' } });
    expect(JSON.stringify(res.body)).not.toContain('fac-secret');
    expect(facilitator.calls.map((c) => c.path)).toEqual(['/verify']);
    expect(await agents()).toBe(before);
    expect(
      (await ds.query(`SELECT count(*)::int AS n FROM payments WHERE payer = $1`, [wallet.address.toLowerCase()]))[0].n,
    ).toBe(0);
  });

  it('fails the settlement cleanly when the facilitator refuses the credential at /settle: nothing charged, no agent', async () => {
    facilitator.auth = (req) => req.url === '/verify' || req.headers.authorization === 'never';
    const before = await agents();
    const { wallet, res } = await register();
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('SETTLEMENT_FAILED');
    expect(await agents()).toBe(before);
    const [row] = await ds.query(`SELECT status, last_error FROM payments WHERE payer = $1`, [
      wallet.address.toLowerCase(),
    ]);
    expect(row).toMatchObject({ status: 'settlement_failed', last_error: expect.stringMatching(/401/) });
    expect(row.last_error).not.toContain('fac-secret');
  });

  it('signs each call with a CDP API key (a fresh JWT for its method, host and path) in the built api', async () => {
    const key = cdpKey();
    facilitator.auth = key.check;
    const env = {
      ...api.env,
      FACILITATOR_URL: `${facilitator.url}/platform/v2/x402`,
      FACILITATOR_AUTH_HEADERS: '',
      LOG_LEVEL: 'debug',
      CDP_API_KEY_ID: key.id,
      CDP_API_KEY_SECRET: key.secret,
    };
    const proc = await startApiProcess(env);
    try {
      const wallet = newWallet();
      const res = await registerAgent(
        { config: api.config, request: (m, p, o) => requestTo(proc.url, m, p, o) },
        wallet,
      );
      expect(res.status).toBe(201);
      expect(facilitator.calls.map((c) => c.path)).toEqual(['/verify', '/settle']);
      expect(facilitator.calls.every((c) => /^Bearer /.test(String(c.headers.authorization)))).toBe(true);
      expect(proc.process.output()).not.toContain(key.secret);
      // The same key signing for another facilitator's paths is refused: nothing charged.
      facilitator.calls.length = 0;
      facilitator.auth = (req) => req.url?.startsWith('/elsewhere') === true && key.check(req);
      const refused = await registerAgent(
        { config: api.config, request: (m, p, o) => requestTo(proc.url, m, p, o) },
        newWallet(),
      );
      expect(refused.status).toBe(502);
      expect(refused.body.error.code).toBe('SETTLEMENT_FAILED');
    } finally {
      proc.process.child.kill('SIGKILL');
      await proc.process.exited;
    }
  });

  it("passes the facilitator's refusal on as PAYMENT_INVALID, reserving and settling nothing", async () => {
    facilitator.verify = { invalidReason: 'insufficient_funds' };
    const before = await agents();
    const { res } = await register();
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'PAYMENT_INVALID', details: { reason: 'insufficient_funds' } });
    expect(facilitator.calls.map((c) => c.path)).toEqual(['/verify']);
    expect(await agents()).toBe(before);
    expect((await ds.query(`SELECT count(*)::int AS n FROM payments WHERE status = 'reserved'`))[0].n).toBe(0);
  });

  it('answers SETTLEMENT_FAILED (502) and creates no agent when the facilitator cannot settle', async () => {
    facilitator.settle = 'fail';
    const before = await agents();
    const { wallet, res } = await register();
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('SETTLEMENT_FAILED');
    expect(await agents()).toBe(before);
    const [row] = await ds.query(`SELECT status, purpose, last_error FROM payments WHERE payer = $1`, [
      wallet.address.toLowerCase(),
    ]);
    expect(row).toMatchObject({
      status: 'settlement_failed',
      purpose: 'registration',
      last_error: expect.stringMatching(/invalid_transaction_state/),
    });
    // A failed registration is never settled later behind the client's back.
    clock.advance(3_600_000);
    expect(await api.app.get(SettlePayment).due()).toEqual([]);
  });

  it('answers 502 without charging when the facilitator is unreachable', async () => {
    const down = await startApi(env('http://127.0.0.1:9'));
    try {
      const wallet = newWallet();
      const h = await x402Header(wallet, { amount: REGISTRATION_FEE_MICROS, payTo: down.config.platformWallet });
      const res = await down.request('POST', '/api/v1/agents', {
        body: agentPayload(wallet),
        headers: { [h.name]: h.value },
      });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('SETTLEMENT_FAILED');
      expect((await down.app.get(DataSource).query(`SELECT count(*)::int AS n FROM payments`))[0].n).toBe(0);
    } finally {
      await down.close();
    }
  });

  it('retries a failed execution settlement on schedule until it settles', async () => {
    const client = newWallet();
    const price = {
      amount: PLATFORM_FEE + 50_000n,
      resource: `${api.config.publicBaseUrl}/api/v1/execute`,
      description: 'test execution',
    };
    const nowS = BigInt(Math.floor(clock.nowMs() / 1000));
    const h = await x402Header(client, {
      amount: price.amount,
      payTo: api.config.platformWallet,
      validAfter: nowS - 600n,
      validBefore: nowS + 300n,
    });
    const reserved = await api.app
      .get(AuthorizePayment)
      .execute({ value: h.value, version: h.name === 'X-PAYMENT' ? 1 : 2 }, price, {
        purpose: 'execution',
      });

    facilitator.settle = 'http-500';
    const err = await api.app
      .get(SettlePayment)
      .execute(reserved.id)
      .catch((e: unknown) => e);
    // No answer (a 500): the facilitator may have sent it, so it is undecided (settling, looked at
    // again after the lease), not failed.
    expect((err as AppException).code).toBe('SETTLEMENT_FAILED');
    expect((err as AppException).details).toMatchObject({ reason: 'settlement_pending' });
    const [failed] = await ds.query(`SELECT status, settle_attempts, next_attempt_at FROM payments WHERE id = $1`, [
      reserved.id,
    ]);
    expect(failed).toMatchObject({ status: 'settling', settle_attempts: 1 });
    expect(new Date(failed.next_attempt_at).getTime() - clock.nowMs()).toBe(api.config.settlementLeaseMs);
    expect(await api.app.get(SettlePayment).due()).not.toContain(reserved.id);

    clock.advance(api.config.settlementLeaseMs + 1);
    expect(await api.app.get(SettlePayment).due()).toContain(reserved.id);
    facilitator.settle = 'ok';
    const settled = await api.app.get(SettlePayment).execute(reserved.id);
    expect(settled).toMatchObject({
      status: 'settled',
      settleAttempts: 2,
      txHash: keccak256(toUtf8Bytes(`settled:${h.nonce}`)),
    });
    expect(await api.app.get(SettlePayment).due()).not.toContain(reserved.id);
  });
});
