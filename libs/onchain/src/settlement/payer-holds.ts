import { Logger } from '@nestjs/common';
import { Clock } from '@app/common';
import type { RedisClient } from '@app/queues';

/** The authorization a hold is for. */
export interface HeldPayment {
  chainId: number;
  asset: string;
  payer: string;
  nonce: string;
  value: bigint;
  /** Unix seconds: past it the authorization can no longer move anything, so neither does its hold. */
  validBefore: bigint | string;
}

/** A hold lasts at most this long (its settlement is normally done in seconds; a crash leaves it to run out). */
export const HOLD_MS = 600_000;
/** A Redis that does not answer this fast is passed over: the balance alone decides, as before. */
const REDIS_WAIT_MS = 200;

/**
 * One script, one key per payer and asset (a hash: nonce -> "amount:expiry ms"): drops the expired
 * holds, sums the others (this nonce's own excepted: the same authorization is held once), and holds
 * this one only if the balance covers it on top of them. Times are the Clock's; ARGV[6] turns one into
 * the wall clock's for the key's own expiry. Answers {1|0, held by others}.
 */
const HOLD = `
local now = tonumber(ARGV[5])
local latest = tonumber(ARGV[4])
local held = 0
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local sep = string.find(all[i + 1], ':', 1, true)
  local amount = tonumber(string.sub(all[i + 1], 1, sep - 1))
  local expires = tonumber(string.sub(all[i + 1], sep + 1))
  if expires <= now then
    redis.call('HDEL', KEYS[1], all[i])
  elseif all[i] ~= ARGV[1] then
    held = held + amount
    if expires > latest then latest = expires end
  end
end
if tonumber(ARGV[3]) - held < tonumber(ARGV[2]) then return {0, tostring(held)} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ':' .. ARGV[4])
redis.call('PEXPIREAT', KEYS[1], latest + tonumber(ARGV[6]))
return {1, tostring(held)}`;

/**
 * What a payer's calls in flight have already spent of its balance (evm preflight). The balance is read
 * once per call, so without this N parallel calls each worth the whole balance would all run and only
 * one settle. A call is held at admission, for its authorization's amount, only if the balance covers
 * it beside the payer's other holds; the hold is released when its settlement is recorded (the balance
 * on chain then says it) or fails, when the run fails, or when the request did no paid work; a crash
 * leaves it to expire (HOLD_MS, never past the authorization's validBefore). Redis down or slow: the
 * balance alone decides, as before (the settlement still refuses what the payer cannot pay).
 */
export class PayerHolds {
  private readonly logger = new Logger(PayerHolds.name);

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly clock: Clock,
  ) {}

  /** Holds `p.value` of `balance` for this call: false when the payer's other calls in flight leave too little. */
  async hold(p: HeldPayment, balance: bigint): Promise<boolean> {
    const now = this.clock.nowMs();
    const until = Math.min(now + HOLD_MS, Number(p.validBefore) * 1000);
    if (until <= now) return balance >= p.value;
    const args = [p.nonce.toLowerCase(), p.value.toString(), balance.toString(), String(until), String(now)];
    const wallOffset = String(this.clock.wallMs(now) - now);
    let timer: NodeJS.Timeout | undefined;
    const answer = await Promise.race([
      (this.redis.eval(HOLD, 1, this.key(p), ...args, wallOffset) as Promise<[number, string]>).catch(
        (err: unknown) => err as Error,
      ),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), REDIS_WAIT_MS))),
    ]).finally(() => clearTimeout(timer));
    if (Array.isArray(answer)) return answer[0] === 1;
    this.logger.warn(`payer holds not checked (${answer === null ? 'Redis is slow' : answer.message}): balance only`);
    return balance >= p.value;
  }

  /** The nonces the payer's other calls hold (at most `limit`); none when Redis does not answer. */
  async heldNonces(p: Pick<HeldPayment, 'chainId' | 'asset' | 'payer' | 'nonce'>, limit: number): Promise<string[]> {
    const own = p.nonce.toLowerCase();
    const nonces = await this.redis.hkeys(this.key(p)).catch(() => [] as string[]);
    return nonces.filter((n) => n !== own).slice(0, limit);
  }

  /** Releases a call's hold (not awaited; Redis errors ignored: it expires). */
  release(p: Pick<HeldPayment, 'chainId' | 'asset' | 'payer' | 'nonce'>): void {
    void this.redis.hdel(this.key(p), p.nonce.toLowerCase()).catch(() => undefined);
  }

  private key(p: Pick<HeldPayment, 'chainId' | 'asset' | 'payer'>): string {
    return `${this.prefix}:held:${p.chainId}:${p.asset.toLowerCase()}:${p.payer.toLowerCase()}`;
  }
}
