import { Wallet } from 'ethers';
import { startApi } from '../support/api-harness';
import { startApiWithAgent, ApiWithAgent } from '../support/api-with-agent';
import { openSse, SseStream } from '../support/sse';
import { x402Header } from '../support/x402';

/**
 * GET /api/v1/feed/executions: executions as they end, as server-sent events, public fields only,
 * within 2 s of the answer; a bounded number of watchers per process.
 */
describe('live execution feed (e2e)', () => {
  let env: ApiWithAgent;
  const streams: SseStream[] = [];
  const client = new Wallet(Wallet.createRandom().privateKey);
  const PRICE = 11_000n;

  beforeAll(async () => {
    env = await startApiWithAgent({ FEED_MAX_SUBSCRIBERS: '2' });
  });
  afterEach(() => streams.splice(0).forEach((s) => s.close()));
  afterAll(async () => {
    await env.stop();
  });

  const watch = async () => {
    const s = await openSse(`${env.api.baseUrl}/api/v1/feed/executions`);
    streams.push(s);
    return s;
  };
  const execute = async (input: Record<string, unknown>) => {
    const h = await x402Header(client, { amount: PRICE, payTo: env.api.config.platformWallet });
    return env.api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: env.agentId, capabilityId: 'translate', input },
      headers: { [h.name]: h.value },
    });
  };

  it('a paid execution reaches every watcher within 2 s, with its public fields only', async () => {
    const [a, b] = [await watch(), await watch()];
    expect(a.status).toBe(200);
    const res = await execute({ text: 'a secret input' });
    expect(res.status).toBe(200);
    const transactionId = res.body.data.transactionId as string;
    expect(transactionId).toMatch(/^tx_/);
    for (const s of [a, b]) {
      const e = await s.next(
        (x) => x.event === 'execution' && (x.data as { transactionId: string }).transactionId === transactionId,
        2_000,
      );
      // No request id: with it anyone could start a failed run's retry or read an output (issue 51 review).
      expect(e.data).toEqual({
        transactionId,
        agentId: env.agentId,
        agentName: expect.any(String),
        capabilityId: 'translate',
        status: 'completed',
        amount: '0.011000',
        settlement: { status: 'settled', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), network: 'base-sepolia' },
        at: expect.any(String),
      });
      expect(JSON.stringify(e.data)).not.toContain('secret');
      expect(JSON.stringify(e.data)).not.toContain(client.address.toLowerCase().slice(2));
    }
  });

  it('a failed run is in the feed as failed, with nothing charged', async () => {
    const s = await watch();
    const res = await execute({ text: 'x', mode: 'fail' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const e = await s.next((x) => x.event === 'execution' && (x.data as { status: string }).status === 'failed', 2_000);
    expect(e.data).toMatchObject({ status: 'failed', amount: null, capabilityId: 'translate', transactionId: null });
    expect(JSON.stringify(e.data)).not.toContain(res.body.error.details.requestId);
  });

  it('beyond FEED_MAX_SUBSCRIBERS a watcher is refused with 503 in the envelope; a watcher gone frees its place', async () => {
    const [a] = [await watch(), await watch()];
    const third = await watch();
    expect(third.status).toBe(503);
    expect(third.body).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    a.close();
    let again: SseStream | null = null;
    for (let i = 0; i < 50 && again?.status !== 200; i++) {
      again = await watch();
      if (again.status !== 200) await new Promise((r) => setTimeout(r, 20));
    }
    expect(again!.status).toBe(200);
  });

  it('an address holds at most FEED_MAX_PER_IP streams (429); at shutdown open streams are ended, not waited for', async () => {
    const other = await startApi({ FEED_MAX_PER_IP: '1', FEED_MAX_SUBSCRIBERS: '10' });
    const first = await openSse(`${other.baseUrl}/api/v1/feed/executions`);
    const second = await openSse(`${other.baseUrl}/api/v1/feed/executions`);
    expect(first.status).toBe(200);
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED', details: { limit: 1 } } });
    // The close would wait for the open stream's socket (until the process's forced exit) if the feed did not end it.
    let timer: NodeJS.Timeout | undefined;
    const closed = other.close().then(() => 'closed');
    const within = new Promise((r) => (timer = setTimeout(() => r('still open after 10 s'), 10_000)));
    expect(await Promise.race([closed, within])).toBe('closed');
    clearTimeout(timer);
    first.close();
  });
});
