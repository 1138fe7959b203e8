/**
 * One key's passes (`:run`, job id -> when the pass runs out) and its line (`:line`, job id -> when
 * it joined), in one step, on Redis's clock: passes that ran out go (a worker killed mid-job leaks
 * its pass for at most the hold); `release` drops the caller's pass and place. `acquire`: the caller
 * takes a pass if it holds one (a stalled job run again, or one waiting at a later level: its pass
 * is renewed for `hold`) or one is free, and leaves the line. `park`: it joins the line's end
 * (keeping its place if it is in it). Then as many jobs at the head of the line as passes are free
 * are answered, to be woken: each takes a pass when it runs (a pass is never set aside for a job
 * that is not running: a woken job may wait behind other work). A key's time to live is only ever
 * lengthened (a pass held for a long wait outlives the shorter holds of others).
 * Answers [1 runs | 0 waits, jobs ahead of it in line, ...job ids to wake].
 */
export const TURN_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local token, limit, hold, mode, lineTtl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if mode == 'release' then
  redis.call('ZREM', KEYS[1], token)
  redis.call('ZREM', KEYS[2], token)
end
local free = limit - redis.call('ZCARD', KEYS[1])
local state = 0
if mode == 'acquire' and (redis.call('ZSCORE', KEYS[1], token) or free > 0) then
  if not redis.call('ZSCORE', KEYS[1], token) then free = free - 1 end
  redis.call('ZADD', KEYS[1], now + hold, token)
  redis.call('ZREM', KEYS[2], token)
  state = 1
elseif mode == 'park' then
  redis.call('ZADD', KEYS[2], 'NX', now, token)
end
local woken = {}
if free > 0 then woken = redis.call('ZRANGE', KEYS[2], 0, free - 1) end
if redis.call('EXISTS', KEYS[1]) == 1 and redis.call('PTTL', KEYS[1]) < hold then redis.call('PEXPIRE', KEYS[1], hold) end
if redis.call('EXISTS', KEYS[2]) == 1 and redis.call('PTTL', KEYS[2]) < lineTtl then redis.call('PEXPIRE', KEYS[2], lineTtl) end
local ahead = redis.call('ZRANK', KEYS[2], token) or redis.call('ZCARD', KEYS[2])
local out = { state, ahead }
for i = 1, #woken do out[#out + 1] = woken[i] end
return out
`;

export type TurnMode = 'acquire' | 'park' | 'release';

export interface TurnRedis {
  agoraCapTurn(
    run: string,
    line: string,
    token: string,
    limit: number,
    holdMs: number,
    mode: TurnMode,
    lineTtlMs: number,
  ): Promise<[number, number, ...string[]]>;
}
