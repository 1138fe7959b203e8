import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { FixedClock, SystemClock, UnavailableException } from '@app/common';
import { AppConfig } from '@app/config';
import { InFlightRuns, MAX_WAITERS, RateLimiter } from '@app/execution';
import { waitFor } from '../support/processes';
import { NonceGuard } from '@app/x402';
import { RedisClient, redisConnectionOptions } from '@app/queues';
import { TEST_REDIS_URL } from '../setup/test-env';
import { startPrivateRedis } from '../support/redis-server';

/** The rate-limit script against a real Redis: the window, and the nonce claim it takes in the same round trip. */
describe('RateLimiter (integration)', () => {
  const redis = new Redis({ ...redisConnectionOptions(TEST_REDIS_URL), maxRetriesPerRequest: 2 });
  const prefix = `rltest${randomUUID().slice(0, 8)}`;
  const limiter = new RateLimiter(
    redis,
    {
      queuePrefix: prefix,
      rateLimitClientPerMin: 2,
      rateLimitAgentPerMin: 100,
    } as AppConfig,
    new SystemClock(),
  );
  const claim = () => ({ key: `${prefix}:nonce:${randomUUID()}`, expiresAtMs: Date.now() + 60_000 });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('takes a nonce claim once: the first admitted request gets it, a second one with the same nonce does not', async () => {
    const c = claim();
    expect(await limiter.hit('0xaaa1', 'agent-1', c)).toMatchObject({
      claimed: true,
      retryAfterS: null,
      clientRemaining: 1,
    });
    expect(await limiter.hit('0xaaa2', 'agent-1', c)).toMatchObject({ claimed: false, retryAfterS: null });
    expect(await redis.pttl(c.key)).toBeGreaterThan(50_000);
    expect(await limiter.hit('0xaaa3', 'agent-1')).toMatchObject({ claimed: null, retryAfterS: null });
  });

  it('refuses with SERVICE_UNAVAILABLE (Retry-After 1 s) when Redis does not answer, and lets any other Redis error through', async () => {
    const failing = (err: Error) =>
      new RateLimiter(
        { evalsha: () => Promise.reject(err) } as unknown as RedisClient,
        { queuePrefix: prefix } as AppConfig,
        new SystemClock(),
      );
    const down = failing(new Error('Reached the max retries per request limit (which is 2).'));
    await expect(down.hit('0xccc1', 'agent-3')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterS: 1 });
    const cluster = failing(new Error("Cluster isn't ready and enableOfflineQueue options is false"));
    await expect(cluster.hit('0xccc1', 'agent-3')).rejects.toBeInstanceOf(UnavailableException);
    const bug = failing(new Error('WRONGTYPE Operation against a key holding the wrong kind of value'));
    await expect(bug.hit('0xccc1', 'agent-3')).rejects.toThrow(/WRONGTYPE/);
  });

  it('takes no claim for a request it turns away (429), and counts it not', async () => {
    const client = `0xbbb${randomUUID().slice(0, 4)}`;
    await limiter.hit(client, 'agent-2');
    await limiter.hit(client, 'agent-2');
    const c = claim();
    const limited = await limiter.hit(client, 'agent-2', c);
    expect(limited).toMatchObject({ claimed: null, clientRemaining: 0 });
    expect(limited.retryAfterS).toBeGreaterThanOrEqual(1);
    expect(await redis.exists(c.key)).toBe(0);
  });

  it('claims the nonce of an authorization valid for ages for a day at most, and until a minute after expiry otherwise', async () => {
    const nonces = new NonceGuard(redis, { queuePrefix: prefix } as AppConfig);
    const ref = { chainId: 84532, asset: '0xAsset', payer: '0xPayer', nonce: `0x${'ab'.repeat(32)}` };
    const far = nonces.claimRequest({ ...ref, validBefore: '9'.repeat(70) });
    expect(far.expiresAtMs).toBeLessThanOrEqual(Date.now() + 86_400_000);
    expect((await limiter.hit(`0xddd${randomUUID().slice(0, 4)}`, 'agent-4', far)).claimed).toBe(true);
    const validBefore = Math.floor(Date.now() / 1000) + 600;
    expect(nonces.claimRequest({ ...ref, validBefore: BigInt(validBefore) }).expiresAtMs).toBe(
      validBefore * 1000 + 60_000,
    );
    expect(far.key).toBe(`${prefix}:nonce:84532:0xasset:0xpayer:0x${'ab'.repeat(32)}`);
  });

  describe("an idempotency key's in-flight claim", () => {
    const config = {
      queuePrefix: prefix,
      rateLimitClientPerMin: 100,
      rateLimitAgentPerMin: 100,
      executionTimeoutMs: 30_000,
      runClaimGraceMs: 60_000,
    } as AppConfig;
    const many = new RateLimiter(redis, config, new SystemClock());
    const runs = new InFlightRuns(redis, config, new SystemClock());
    const payer = () => `0xeee${randomUUID().slice(0, 8)}`;
    const request = (p: string, key: string, input: unknown = { text: 'hi' }) =>
      runs.request(
        p,
        key,
        { fingerprint: `translate:${JSON.stringify(input)}`, requestId: `req_${randomUUID()}` },
        { network: 'eip155:84532', chainId: 84532, asset: '0xasset', amount: '11000', nonce: '0x01', createdAtMs: 1 },
      );

    it('is taken only with the nonce claim, read otherwise, and scoped to the payer', async () => {
      const p = payer();
      const first = request(p, 'key-1');
      expect(first.expiresAtMs).toBeGreaterThan(Date.now() + 85_000);
      expect(await many.hit(p, 'agent-5', claim(), true, first)).toMatchObject({ claimed: true, run: 'taken' });
      expect(await redis.get(first.key)).toBe(first.value);
      // Another payment with the same key: its nonce is taken, the key's claim is held by the first.
      const second = request(p, 'key-1');
      expect(second.key).toBe(first.key);
      expect(await many.hit(p, 'agent-5', claim(), true, second)).toMatchObject({
        claimed: true,
        run: { heldBy: first.value },
      });
      // The first payment again (its nonce held): only read.
      const nonce = claim();
      await many.hit(p, 'agent-5', nonce);
      expect(await many.hit(p, 'agent-5', nonce, true, second)).toMatchObject({
        claimed: false,
        run: { heldBy: first.value },
      });
      // Free but not taken without the nonce claim; another payer's same key is its own.
      const free = request(p, 'key-2');
      expect(await many.hit(p, 'agent-5', nonce, true, free)).toMatchObject({ claimed: false, run: 'free' });
      expect(await redis.exists(free.key)).toBe(0);
      expect(request(payer(), 'key-1').key).not.toBe(first.key);
      // No run claim without a nonce claim.
      expect(await many.hit(p, 'agent-5', undefined, true, free)).toMatchObject({ claimed: null, run: null });
    });

    it('is given back only by its holder, and a waiter sees it go', async () => {
      const p = payer();
      const held = request(p, 'key-3');
      await many.hit(p, 'agent-6', claim(), true, held);
      const other = request(p, 'key-3');
      runs.release(other); // not the holder's value: nothing changes
      await redis.ping(); // the release was sent before this on the same connection
      expect(await redis.get(held.key)).toBe(held.value);
      // What it says of itself, for the payment status.
      expect(await runs.current(p, 'key-3')).toMatchObject({
        requestId: InFlightRuns.parse(held.value)!.requestId,
        payment: { amount: '11000', nonce: '0x01' },
      });
      // At most MAX_WAITERS wait on it; one more is told at once.
      const waiting = Array.from({ length: MAX_WAITERS }, () => runs.waitGone(other, held.value));
      await waitFor(async () => Number(await redis.get(`${held.key}:waiters`)) === MAX_WAITERS, 'the waiters');
      await expect(runs.waitGone(other, held.value)).resolves.toBe('crowded');
      runs.release(held);
      expect(await Promise.all(waiting)).toEqual(Array(MAX_WAITERS).fill('gone'));
      expect(await redis.exists(held.key)).toBe(0);
      expect(await runs.current(p, 'key-3')).toBeNull();
    });
  });

  it('claims for as long in Redis whatever time a test clock shows: absolute times go in the wall clock', async () => {
    const past = new FixedClock(new Date('2020-01-01T00:00:00Z'));
    const nonces = new NonceGuard(redis, { queuePrefix: prefix } as AppConfig, past);
    const validBefore = BigInt(Math.floor(past.nowMs() / 1000) + 600);
    const ref = { chainId: 84532, asset: '0xAsset', payer: '0xPast', nonce: `0x${randomUUID().replace(/-/g, '')}` };
    const c = nonces.claimRequest({ ...ref, validBefore });
    expect((await limiter.hit(`0xfff${randomUUID().slice(0, 4)}`, 'agent-7', c)).claimed).toBe(true);
    // Ten minutes and one past the clock's now, wherever the wall clock is.
    const ttl = await redis.pttl(c.key);
    expect(ttl).toBeGreaterThan(655_000);
    expect(ttl).toBeLessThanOrEqual(660_000);
    expect(new SystemClock().wallMs(1_234)).toBe(1_234);
  });

  it('loads the script again when Redis has forgotten it', async () => {
    // SCRIPT FLUSH empties the script cache of the whole server: on the shared one it would pull the
    // scripts from under test files running in other workers, so this test gets a server of its own.
    const own = await startPrivateRedis();
    try {
      const ownLimiter = new RateLimiter(
        own.redis,
        {
          queuePrefix: prefix,
          rateLimitClientPerMin: 100,
          rateLimitAgentPerMin: 100,
        } as AppConfig,
        new SystemClock(),
      );
      const evals = async () => Number(/cmdstat_eval:calls=(\d+)/.exec(await own.redis.info('commandstats'))?.[1] ?? 0);
      const hit = () => ownLimiter.hit(`0xccc${randomUUID().slice(0, 4)}`, 'agent-3', claim());
      expect(await hit()).toMatchObject({ claimed: true }); // a fresh server: EVALSHA fails, EVAL loads it
      expect(await evals()).toBe(1);
      expect(await hit()).toMatchObject({ claimed: true }); // known now: by hash only
      expect(await evals()).toBe(1);
      await own.redis.script('FLUSH');
      expect(await hit()).toMatchObject({ claimed: true });
      expect(await evals()).toBe(2);
    } finally {
      await own.stop();
    }
  });
});
