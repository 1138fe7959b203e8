import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { AgoraClient } from './client';
import { ServiceUnavailableError } from './errors';

interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}
interface Seen {
  method: string;
  url: string;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  at: number;
}

const envelope = (status: number, code: string, headers: Record<string, string> = {}): Answer => ({
  status,
  body: JSON.stringify({ success: false, error: { code, message: 'try again' } }),
  headers: { 'content-type': 'application/json', ...headers },
});
const unavailable = (retryAfter: string) => envelope(503, 'SERVICE_UNAVAILABLE', { 'retry-after': retryAfter });
const ok = (data: unknown): Answer => ({
  status: 200,
  body: JSON.stringify({ success: true, data }),
  headers: { 'content-type': 'application/json' },
});
const AGENT_ID = '7f1c5a52-3c8e-4a57-9d2a-0f6d3b1e9a10';
const CHAIN_ID = '0c6f4c6e-8a5e-4f7b-b7a8-4c2c1f0d9e21';

/** The SDK's retries against a real HTTP server on loopback, answering from a script and recording every request. */
describe('AgoraClient retries a 503 (a real HTTP server)', () => {
  let server: Server;
  let baseUrl: string;
  let script: Answer[] = [];
  let seen: Seen[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          method: req.method!,
          url: req.url!,
          body: Buffer.concat(chunks).toString(),
          headers: req.headers,
          at: performance.now(),
        });
        const answer = script[Math.min(seen.length, script.length) - 1];
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => {
    script = [];
    seen = [];
  });

  it('sends a read answered 503 with Retry-After again once that time has passed, and answers what comes then', async () => {
    script = [unavailable('1'), ok({ id: AGENT_ID, name: 'a' })];
    const agent = await new AgoraClient({ baseUrl }).getAgent(AGENT_ID);
    expect(agent).toMatchObject({ id: AGENT_ID });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      `GET /api/v1/agents/${AGENT_ID}`,
      `GET /api/v1/agents/${AGENT_ID}`,
    ]);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(950);
  });

  it('gives up after `retry.attempts` answers of 503 with the typed error and its Retry-After', async () => {
    script = [unavailable('0')];
    const err = await new AgoraClient({ baseUrl, retry: { attempts: 4 } }).getAgent(AGENT_ID).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, details: { retryAfter: 0 } });
    expect(seen).toHaveLength(4);
  });

  it('does not wait a Retry-After longer than `retry.maxDelayMs`: answered at once', async () => {
    script = [unavailable('60'), ok({ id: AGENT_ID })];
    const started = performance.now();
    await expect(new AgoraClient({ baseUrl }).getAgent(AGENT_ID)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(seen).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("sends an unkeyed write again, identically, after the API's own 503 (nothing was written); never after a proxy's", async () => {
    script = [unavailable('0'), ok({ id: CHAIN_ID, status: 'closed' })];
    const client = new AgoraClient({ baseUrl });
    await client.closeChain(CHAIN_ID, 'token-1');
    expect(seen).toHaveLength(2);
    expect(seen[0].headers['idempotency-key']).toBeUndefined();
    const sent = (x: Seen) => [x.method, x.url, x.body, x.headers['x-chain-token'], x.headers['idempotency-key']];
    expect(sent(seen[1])).toEqual(sent(seen[0]));

    // A proxy's 503 (it may have stopped waiting while the request went on): the caller decides.
    seen = [];
    script = [{ status: 503, body: '<html>Service Unavailable</html>', headers: { 'retry-after': '0' } }];
    await expect(client.closeChain(CHAIN_ID, 'token-1')).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
  });
});
