import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
  PAYMENT_IDENTIFIER,
  validatePaymentIdentifier,
} from '@x402/extensions/payment-identifier';
import { RunPendingExecution } from '@app/execution';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';
import { executionCounts, referencePayingFetch } from '../support/x402-client';

/** Issue 33: the x402 payment identifier, one idempotency store with idempotencyKey, looked up before verifying. */
describe('x402 payment identifier (e2e)', () => {
  let api: ApiHarness;
  let api2: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let path: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    const env = { OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' };
    api = await startApi(env);
    // A second api process on the same database and Redis.
    api2 = await startApi({ ...env, DATABASE_URL: api.databaseUrl, QUEUE_PREFIX: api.env.QUEUE_PREFIX });
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, newWallet(), { endpoints: { execution: agentServer.url } });
    expect(res.status).toBe(201);
    path = `/api/v1/agents/${res.body.data.id}/capabilities/translate/execute`;
  });
  afterAll(async () => {
    await api2.close();
    await api.close();
    await agentServer.stop();
  });

  const counts = () => executionCounts(ds);

  /** The reference client, adding a payment id to every payment it makes (as x402's own example does). */
  const payingFetch = (wallet: Wallet, id?: string) =>
    referencePayingFetch(wallet, (client) => {
      if (id)
        client.onBeforePaymentCreation(async ({ paymentRequired }) => {
          paymentRequired.extensions ??= {};
          appendPaymentIdentifierToExtensions(paymentRequired.extensions, id);
        });
    });
  const json = async (res: Response): Promise<any> => res.json();
  const call = (base: ApiHarness, pay: ReturnType<typeof payingFetch>, input: unknown, headers = {}) =>
    pay(`${base.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(input),
    });

  it('offers the extension on the 402 (required: false), valid per its own schema', async () => {
    const res = await api.request('POST', path, { body: { text: 'hi' } });
    expect(res.status).toBe(402);
    const v2 = JSON.parse(Buffer.from(res.headers.get('payment-required')!, 'base64').toString());
    const ext = v2.extensions[PAYMENT_IDENTIFIER];
    expect(ext.info).toEqual({ required: false });
    expect(validatePaymentIdentifier(ext)).toEqual({ valid: true });
  });

  it('answers a retry with the stored response byte for byte (PAYMENT-RESPONSE too), from either api; charged once', async () => {
    const wallet = newWallet();
    const id = generatePaymentId();
    const first = await call(api, payingFetch(wallet, id), { text: 'once' });
    expect(first.status).toBe(200);
    const body = await first.text();
    const receipt = first.headers.get('payment-response');
    expect(receipt).toEqual(expect.any(String));
    const before = await counts();
    // Each retry signs a new authorization (a new nonce): none of them is ever used.
    for (const base of [api, api2, api]) {
      const again = await call(base, payingFetch(wallet, id), { text: 'once' });
      expect(again.status).toBe(200);
      expect(await again.text()).toBe(body);
      expect(again.headers.get('payment-response')).toBe(receipt);
    }
    expect(await counts()).toEqual(before);
    expect(JSON.parse(body).data.output).toEqual({ translation: 'ONCE' });
  });

  it('answers a retry of an async request with the same 202 byte for byte, before and after the run', async () => {
    const wallet = newWallet();
    const id = generatePaymentId();
    const asyncCall = (base: ApiHarness) =>
      payingFetch(wallet, id)(`${base.baseUrl}${path}?async=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'later' }),
      });
    const first = await asyncCall(api);
    expect(first.status).toBe(202);
    const body = await first.text();
    const { requestId } = JSON.parse(body).data;
    const location = first.headers.get('location');
    const again = await asyncCall(api2);
    expect([again.status, await again.text(), again.headers.get('location')]).toEqual([202, body, location]);
    // Once it ran (the harness has no worker: it runs here), the retry still answers the first 202.
    await api.app.get(RunPendingExecution).execute(requestId);
    const [row] = await ds.query(`SELECT status FROM executions WHERE id = $1`, [requestId]);
    expect(row.status).toBe('completed');
    const later = await asyncCall(api);
    expect([later.status, await later.text(), later.headers.get('location')]).toEqual([202, body, location]);
  });

  it('answers a stored response only to a payment that proves the payer: the original, or one that verifies', async () => {
    const wallet = newWallet();
    const id = generatePaymentId();
    const withId = (header: string) => {
      const decoded = JSON.parse(Buffer.from(header, 'base64').toString());
      const extensions = { [PAYMENT_IDENTIFIER]: { info: { required: false, id } } };
      return Buffer.from(JSON.stringify({ ...decoded, extensions })).toString('base64');
    };
    const post = (header: string) =>
      api.request('POST', path, { body: { text: 'proof' }, headers: { 'PAYMENT-SIGNATURE': header } });
    const original = withId(
      (await x402Header(wallet, { amount: 11_000n, payTo: api.config.platformWallet, version: 2 })).value,
    );
    const first = await post(original);
    expect(first.status).toBe(200);
    const before = await counts();
    // The original payment again (its nonce now used): the same answer.
    expect((await post(original)).body).toEqual(first.body);
    // The payer's signature on an authorization that no longer verifies (expired; e.g. read from the
    // chain, where every settled authorization is public), with the id attached: refused, nothing shown.
    const now = BigInt(Math.floor(Date.now() / 1000));
    const expired = await x402Header(wallet, {
      amount: 11_000n,
      payTo: api.config.platformWallet,
      version: 2,
      validBefore: now - 1n,
    });
    const refused = await post(withId(expired.value));
    expect([refused.status, refused.body.error.code]).toEqual([402, 'PAYMENT_INVALID']);
    expect(JSON.stringify(refused.body)).not.toContain('PROOF');
    // Nor whether the id was used: with another input it is the same refusal, not a 409.
    const probe = await api.request('POST', path, {
      body: { text: 'other' },
      headers: { 'PAYMENT-SIGNATURE': withId(expired.value) },
    });
    expect([probe.status, probe.body.error.code]).toEqual([402, 'PAYMENT_INVALID']);
    expect(await counts()).toEqual(before);
  });

  it('the same id with another input is 409 IDEMPOTENCY_CONFLICT, nothing charged', async () => {
    const wallet = newWallet();
    const id = generatePaymentId();
    expect((await call(api, payingFetch(wallet, id), { text: 'a' })).status).toBe(200);
    const before = await counts();
    const other = await call(api2, payingFetch(wallet, id), { text: 'b' });
    expect(other.status).toBe(409);
    expect((await json(other)).error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await counts()).toEqual(before);
  });

  it("is scoped to the payer: another wallet's same id is a request of its own", async () => {
    const id = generatePaymentId();
    const a = await call(api, payingFetch(newWallet(), id), { text: 'mine' });
    const b = await call(api, payingFetch(newWallet(), id), { text: 'mine' });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await json(a)).data.requestId).not.toBe((await json(b)).data.requestId);
  });

  it('shares the store of Idempotency-Key: equal is one record, different is 400', async () => {
    const wallet = newWallet();
    const id = generatePaymentId();
    const keyed = await call(api, payingFetch(wallet, id), { text: 'k' }, { 'Idempotency-Key': id });
    expect(keyed.status).toBe(200);
    const before = await counts();
    // The key alone (a new payment without an id) answers the same record.
    const byKey = await call(api, payingFetch(wallet), { text: 'k' }, { 'Idempotency-Key': id });
    expect((await json(byKey)).data.requestId).toBe((await json(keyed)).data.requestId);
    const differ = await call(api, payingFetch(wallet, id), { text: 'k' }, { 'Idempotency-Key': 'another-key-1234' });
    expect([differ.status, (await json(differ)).error.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(await counts()).toEqual(before);
  });

  it('a retry after the first response was lost in flight answers the first execution; charged once', async () => {
    const wallet = newWallet();
    const id = generatePaymentId();
    const before = await counts();
    const aborted = new AbortController();
    const lost = payingFetch(wallet, id)(`${api.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'lost', delayMs: 800 }),
      signal: aborted.signal,
    }).catch((err: { name?: string }) => err);
    // The client gives up once the agent is working on it (the api goes on).
    const started = Date.now();
    while (!agentServer.calls.some((c) => c.json.input.text === 'lost') && Date.now() - started < 10_000)
      await new Promise((r) => setTimeout(r, 20));
    aborted.abort();
    expect(await lost).toMatchObject({ name: 'AbortError' });
    // A retry (a new authorization), from the other api, while the first still runs: it waits for the first's answer.
    const retry = await call(api2, payingFetch(wallet, id), { text: 'lost', delayMs: 800 });
    const answer = { status: retry.status, body: await json(retry) };
    expect(answer).toMatchObject({ status: 200, body: { data: { output: { translation: 'LOST' } } } });
    expect(agentServer.calls.filter((c) => c.json.input.text === 'lost')).toHaveLength(1);
    const after = await counts();
    expect(after).toEqual({
      payments: before.payments + 1,
      charges: before.charges + 1,
      executions: before.executions + 1,
    });
  });
});

describe('x402 payment identifier required (e2e)', () => {
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let path: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      PAYMENT_IDENTIFIER_REQUIRED: 'true',
    });
    const res = await registerAgent(api, newWallet(), { endpoints: { execution: agentServer.url } });
    path = `${api.baseUrl}/api/v1/agents/${res.body.data.id}/capabilities/translate/execute`;
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  it('declares required: true, answers 400 to a payment without an id (nothing charged), and runs one with it', async () => {
    const offered = await fetch(path, { method: 'POST' });
    const v2 = JSON.parse(Buffer.from(offered.headers.get('payment-required')!, 'base64').toString());
    expect(v2.extensions[PAYMENT_IDENTIFIER].info).toEqual({ required: true });
    const wallet = newWallet();
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"req"}' };
    // A client that ignores the extension (it echoes `required: true` and no id).
    const without = await referencePayingFetch(wallet)(path, init);
    expect(without.status).toBe(400);
    expect(((await without.json()) as any).error.details.errors[0].field).toBe('payment-identifier');
    const withId = await referencePayingFetch(wallet, (client) =>
      client.onBeforePaymentCreation(async ({ paymentRequired }) => {
        appendPaymentIdentifierToExtensions(paymentRequired.extensions!, generatePaymentId());
      }),
    )(path, init);
    expect(withId.status).toBe(200);
    const ds = api.app.get(DataSource);
    const [row] = await ds.query(`SELECT count(*)::int AS n FROM transactions`);
    expect(row.n).toBe(1);
  });
});
