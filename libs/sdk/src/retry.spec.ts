import { TimeoutError } from './errors';
import { resilientFetch } from './retry';

const dropped = () => Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** An inner fetch answering from a script, recording what each attempt sent. */
function scripted(...steps: (() => Response | Promise<Response>)[]) {
  const seen: { method: string; headers: Record<string, string>; body: string }[] = [];
  const inner = async (request: Request) => {
    seen.push({ method: request.method, headers: Object.fromEntries(request.headers), body: await request.text() });
    const step = steps[Math.min(seen.length, steps.length) - 1];
    return step();
  };
  return { inner, seen };
}

const fast = { retry: { baseDelayMs: 1, maxDelayMs: 50 } };
const post = (headers: Record<string, string> = {}) =>
  new Request('http://api.test/api/v1/execute', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: '{"a":1}',
  });

describe('resilientFetch (SDK retries)', () => {
  it('retries a read after a dropped connection, and gives up after the configured attempts', async () => {
    const ok = scripted(
      () => Promise.reject(dropped()),
      () => json(200, { success: true, data: 1 }),
    );
    expect((await resilientFetch(ok.inner, fast)(new Request('http://api.test/x'))).status).toBe(200);
    expect(ok.seen).toHaveLength(2);
    const down = scripted(() => Promise.reject(dropped()));
    await expect(
      resilientFetch(down.inner, { retry: { attempts: 4, baseDelayMs: 1 } })(new Request('http://api.test/x')),
    ).rejects.toThrow('fetch failed');
    expect(down.seen).toHaveLength(4);
  });

  it('resends a request with an Idempotency-Key identically (same key, payment and body); one without is never resent after a connection failure', async () => {
    const keyed = scripted(
      () => Promise.reject(dropped()),
      () => json(200, { success: true, data: 1 }),
    );
    await resilientFetch(keyed.inner, fast)(post({ 'Idempotency-Key': 'k-1', 'PAYMENT-SIGNATURE': 'sig-1' }));
    expect(keyed.seen).toHaveLength(2);
    expect(keyed.seen[1]).toEqual(keyed.seen[0]);
    expect(keyed.seen[1].headers).toMatchObject({ 'idempotency-key': 'k-1', 'payment-signature': 'sig-1' });
    const bare = scripted(() => Promise.reject(dropped()));
    await expect(resilientFetch(bare.inner, fast)(post())).rejects.toThrow('fetch failed');
    expect(bare.seen).toHaveLength(1);
  });

  it('retries 503 and 429 with Retry-After for any request; not a 429 without one, nor one asking for longer than maxDelayMs', async () => {
    const busy = scripted(
      () =>
        json(503, { success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'busy' } }, { 'Retry-After': '0' }),
      () => json(429, { success: false, error: { code: 'RATE_LIMITED', message: 'slow' } }, { 'Retry-After': '0' }),
      () => json(200, { success: true, data: 1 }),
    );
    expect((await resilientFetch(busy.inner, fast)(post())).status).toBe(200);
    expect(busy.seen).toHaveLength(3);
    for (const headers of [{}, { 'Retry-After': '60' }] as Record<string, string>[]) {
      const limited = scripted(() =>
        json(429, { success: false, error: { code: 'RATE_LIMITED', message: 'slow' } }, headers),
      );
      expect((await resilientFetch(limited.inner, fast)(new Request('http://api.test/x'))).status).toBe(429);
      expect(limited.seen).toHaveLength(1);
    }
  });

  it('retries a keyed request whose first run is still running (409 with Retry-After); never a 409 without one, nor an unkeyed request', async () => {
    const inProgress = () =>
      json(
        409,
        {
          success: false,
          error: { code: 'IDEMPOTENCY_CONFLICT', message: 'still running', details: { reason: 'in_progress' } },
        },
        { 'Retry-After': '0' },
      );
    const keyed = scripted(inProgress, () => json(200, { success: true, data: 1 }));
    expect((await resilientFetch(keyed.inner, fast)(post({ 'Idempotency-Key': 'k-2' }))).status).toBe(200);
    expect(keyed.seen).toHaveLength(2);
    const unkeyed = scripted(inProgress);
    expect((await resilientFetch(unkeyed.inner, fast)(post())).status).toBe(409);
    expect(unkeyed.seen).toHaveLength(1);
    const conflict = scripted(() =>
      json(409, { success: false, error: { code: 'IDEMPOTENCY_CONFLICT', message: 'other input' } }),
    );
    expect((await resilientFetch(conflict.inner, fast)(post({ 'Idempotency-Key': 'k-3' }))).status).toBe(409);
    expect(conflict.seen).toHaveLength(1);
  });

  it("retries a gateway's 502/504 for a read, never the API's own answer (an agent that failed)", async () => {
    const gateway = scripted(
      () => new Response('<html>Bad Gateway</html>', { status: 502 }),
      () => new Response('upstream timed out', { status: 504 }),
      () => json(200, { success: true, data: 1 }),
    );
    expect((await resilientFetch(gateway.inner, fast)(new Request('http://api.test/x'))).status).toBe(200);
    expect(gateway.seen).toHaveLength(3);
    const failed = scripted(() =>
      json(502, { success: false, error: { code: 'EXECUTION_FAILED', message: 'agent failed' } }),
    );
    expect((await resilientFetch(failed.inner, fast)(post({ 'Idempotency-Key': 'k' }))).status).toBe(502);
    expect(failed.seen).toHaveLength(1);
  });

  it('sends once with retry: false', async () => {
    const down = scripted(() => Promise.reject(dropped()));
    await expect(resilientFetch(down.inner, { retry: false })(new Request('http://api.test/x'))).rejects.toThrow(
      'fetch failed',
    );
    expect(down.seen).toHaveLength(1);
  });

  it('aborts a request with no answer within `timeout` as TimeoutError REQUEST_TIMEOUT, without retrying it', async () => {
    let calls = 0;
    const hang = (request: Request) =>
      new Promise<Response>((_, reject) => {
        calls++;
        request.signal.addEventListener('abort', () => reject(request.signal.reason));
      });
    const err = await resilientFetch(hang, { ...fast, timeout: 30 })(new Request('http://api.test/x')).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ code: 'REQUEST_TIMEOUT', status: 0, details: { timeoutMs: 30 } });
    expect(calls).toBe(1);
  });
});
