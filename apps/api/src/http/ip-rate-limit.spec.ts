import type { OpenAPIObject } from '@nestjs/swagger';
import type Redis from 'ioredis';
import { SystemClock } from '@app/common';
import { loadConfig } from '@app/config';
import { documentIpRateLimits, IpRateLimiter, ipWindowOf } from './ip-rate-limit';

const config = loadConfig({ RATE_LIMIT_WRITES_PER_MIN: '3', RATE_LIMIT_BUDGET_CHECKS_PER_MIN: '2', QUEUE_PREFIX: 'u' });

/** A Redis whose eval answers `answer()` (a count, a rejection, or never). */
function fakeRedis(answer: () => Promise<number>): Redis & { calls: number } {
  const fake = { calls: 0, eval: () => (fake.calls++, answer()) };
  return fake as unknown as Redis & { calls: number };
}

describe('ipWindowOf', () => {
  it('puts every route but health and the paid execute in a window', () => {
    expect(
      [
        ['GET', '/api/v1/discover'],
        ['HEAD', '/api/v1/chains/:id'],
        ['POST', '/api/v1/agents'],
        ['PATCH', '/api/v1/agents/:id'],
        ['DELETE', '/api/v1/webhooks/{id}'],
        ['POST', '/api/v1/execute/:requestId/retry'],
        ['POST', '/api/v1/chains/budget-check'],
        ['POST', '/api/v1/execute'],
        ['POST', '/api/v1/agents/:agentId/capabilities/:capabilityId/execute'],
        ['POST', '/api/v1/agents/{agentId}/capabilities/{capabilityId}/execute'],
        ['GET', '/api/v1/health'],
        ['GET', '/api/v1/health/live'],
        ['GET', '/api/v1/healthy'],
      ].map(([method, route]) => ipWindowOf(method, route)),
    ).toEqual([
      'read',
      'read',
      'write',
      'write',
      'write',
      'write',
      'budget-check',
      null,
      null,
      null,
      null,
      null,
      'read',
    ]);
  });

  it('counts the routes served outside /api/v1 (the discovery API, the manifests) in the catalog window', () => {
    for (const route of [
      '/x402/discovery/resources',
      '/x402/discovery/search',
      '/.well-known/x402',
      '/.well-known/x402.json',
      '/.well-known/agent-card.json',
      '/llms.txt',
    ])
      expect([route, ipWindowOf('GET', route)]).toEqual([route, 'catalog']);
    expect(ipWindowOf('GET', '/api/v1/x402/discovery/resources')).toBe('read');
  });
});

describe('IpRateLimiter', () => {
  const t0 = Date.UTC(2030, 0, 1, 12, 0, 10);

  it('counts in Redis per window, address and minute, and says when the minute ends', async () => {
    const keys: string[] = [];
    const redis = {
      eval: (_s: string, _n: number, key: string) => (keys.push(key), Promise.resolve(keys.length)),
    } as unknown as Redis;
    const limiter = new IpRateLimiter(config, redis, new SystemClock());
    expect(await limiter.hit('budget-check', '203.0.113.1', t0)).toEqual({ limit: 2, count: 1, retryAfterS: 50 });
    await limiter.hit('write', '203.0.113.1', t0 + 60_000);
    expect(keys).toEqual([
      `u:rl:budget-check:203.0.113.1:${Math.floor(t0 / 60_000)}`,
      `u:rl:write:203.0.113.1:${Math.floor(t0 / 60_000) + 1}`,
    ]);
  });

  it('Redis down: never refuses for it, counts in the process with the same limits, and leaves Redis alone for a second after a miss', async () => {
    const redis = fakeRedis(() => Promise.reject(new Error('down')));
    const limiter = new IpRateLimiter(config, redis, new SystemClock());
    const counts = [];
    for (let i = 0; i < 4; i++) counts.push((await limiter.hit('write', '203.0.113.2', t0 + i)).count);
    expect(counts).toEqual([1, 2, 3, 4]); // the 4th is over the limit of 3: the guard refuses it
    expect((await limiter.hit('write', '203.0.113.3', t0 + 5)).count).toBe(1); // per address
    expect(redis.calls).toBe(1);
    await limiter.hit('write', '203.0.113.2', t0 + 1_001);
    expect(redis.calls).toBe(2);
    expect((await limiter.hit('write', '203.0.113.2', t0 + 60_000)).count).toBe(1); // a new minute
  });

  it('a Redis miss mid-minute does not start a fresh allowance: the process counted every request of the minute', async () => {
    let up = true;
    let shared = 0;
    const redis = fakeRedis(() => (up ? Promise.resolve(++shared) : Promise.reject(new Error('slow'))));
    const limiter = new IpRateLimiter(config, redis, new SystemClock());
    for (let i = 0; i < 3; i++) await limiter.hit('write', '203.0.113.9', t0 + i);
    up = false;
    expect((await limiter.hit('write', '203.0.113.9', t0 + 10)).count).toBe(4); // over the limit of 3, as Redis would say
    up = true;
    expect((await limiter.hit('write', '203.0.113.9', t0 + 2_000)).count).toBe(5);
  });

  it('a Redis that does not answer within 100 ms is taken as down', async () => {
    const limiter = new IpRateLimiter(
      config,
      fakeRedis(() => new Promise<number>(() => undefined)),
      new SystemClock(),
    );
    const started = Date.now();
    expect((await limiter.hit('read', '203.0.113.4', t0)).count).toBe(1);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('documentIpRateLimits', () => {
  it('documents the 429 with its headers on every counted route, and only there', () => {
    const op = () => ({ responses: { '200': { description: 'ok' } } });
    const doc = documentIpRateLimits({
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/api/v1/chains/budget-check': { post: op() },
        '/api/v1/execute': { post: op() },
        '/api/v1/health/live': { get: op() },
        '/api/v1/agents/{id}': { get: op(), patch: op() },
      },
    } as OpenAPIObject);
    const has429 = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, o]) => [
        `${method} ${path}`,
        Boolean((o as { responses: Record<string, unknown> }).responses['429']),
      ]),
    );
    expect(Object.fromEntries(has429)).toEqual({
      'post /api/v1/chains/budget-check': true,
      'post /api/v1/execute': false,
      'get /api/v1/health/live': false,
      'get /api/v1/agents/{id}': true,
      'patch /api/v1/agents/{id}': true,
    });
    const limited = doc.paths['/api/v1/agents/{id}'].get!.responses['429'] as { headers: Record<string, unknown> };
    expect(Object.keys(limited.headers)).toEqual(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining']);
  });
});
