import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n; // 0.001 platform fee + 0.010 agent fee

/**
 * Issue 53 (review M5): a keyless retry of a used authorization is answered as the execution it paid
 * for only when it is the same request: the same header bytes, the same input, within the idempotency
 * keys' 24 hours, not after three other inputs were tried with that header (an input-guessing oracle).
 * Anything else stays PAYMENT_REPLAYED (409), naming nothing.
 */
describe('keyless replay of a used payment (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let agentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, newWallet(), {
      endpoints: { execution: agentServer.url },
      capabilities: [capabilityPayload()],
    });
    expect(res.status).toBe(201);
    agentId = res.body.data.id;
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  const execute = (text: string, headers: Record<string, string>) =>
    api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text } },
      headers,
    });
  async function paidRun(text: string, extra: Record<string, string> = {}) {
    const h = await x402Header(newWallet(), { amount: PRICE, payTo: api.config.platformWallet });
    const headers = { [h.name]: h.value };
    const first = await execute(text, { ...headers, ...extra });
    expect(first.status).toBe(200);
    return { h, headers, requestId: first.body.data.requestId as string, output: first.body.data.output };
  }
  const refused = (r: { status: number; body: any }, requestId: string) => {
    expect([r.status, r.body.error?.code]).toEqual([409, 'PAYMENT_REPLAYED']);
    expect(JSON.stringify(r.body)).not.toContain(requestId);
  };
  const charges = async (requestId: string) =>
    (
      await ds.query(
        `SELECT count(*)::int AS n FROM transactions t JOIN executions e ON e.transaction_id = t.id WHERE e.id = $1`,
        [requestId],
      )
    )[0].n as number;

  it('answers the same header bytes and input as the execution it paid for, charged once', async () => {
    const { headers, requestId, output } = await paidRun('lost answer');
    const again = await execute('lost answer', headers);
    expect([again.status, again.body.data?.requestId, again.body.data?.output]).toEqual([200, requestId, output]);
    expect(await charges(requestId)).toBe(1);
  });

  it('refuses the same nonce in another encoding of the header (M5b)', async () => {
    const { h, headers, requestId } = await paidRun('other encoding');
    const decoded = JSON.parse(Buffer.from(h.value, 'base64').toString('utf8'));
    const reencoded = Buffer.from(JSON.stringify(decoded, null, 2)).toString('base64');
    expect(reencoded).not.toBe(h.value);
    const r = await execute('other encoding', { [h.name]: reencoded });
    expect(r.body.error?.details?.receipt).toBeUndefined();
    expect(r.headers.get('x-receipt-salt')).toBeNull();
    refused(r, requestId);
    // The very header still answers it.
    expect((await execute('other encoding', headers)).body.data?.requestId).toBe(requestId);
  });

  it('after three other inputs with its header, refuses even the right one (M5c)', async () => {
    const { headers, requestId } = await paidRun('the secret');
    for (const guess of ['guess 1', 'guess 2', 'guess 3']) refused(await execute(guess, headers), requestId);
    refused(await execute('the secret', headers), requestId);
    expect(await charges(requestId)).toBe(1);
  });

  it('two other inputs leave the right one answered', async () => {
    const { headers, requestId } = await paidRun('two guesses');
    for (const guess of ['guess 1', 'guess 2']) refused(await execute(guess, headers), requestId);
    expect((await execute('two guesses', headers)).body.data?.requestId).toBe(requestId);
  });

  it('replays nothing created more than 24 h ago: a keyed run whose key was pruned stays its key’s (M5a)', async () => {
    const keyless = await paidRun('old keyless');
    const keyed = await paidRun('old keyed', { 'Idempotency-Key': `k-${Date.now()}` });
    const [, pruned] = await ds.query(`DELETE FROM idempotency_keys WHERE execution_id = $1 RETURNING 1`, [
      keyed.requestId,
    ]);
    expect(pruned).toBe(1);
    await ds.query(`UPDATE executions SET created_at = created_at - interval '25 hours' WHERE id = ANY($1)`, [
      [keyless.requestId, keyed.requestId],
    ]);
    refused(await execute('old keyless', keyless.headers), keyless.requestId);
    refused(await execute('old keyed', keyed.headers), keyed.requestId);
  });
});
