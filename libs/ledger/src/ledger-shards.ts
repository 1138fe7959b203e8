import { AccountKind, AccountRef, Leg } from './accounts';

/**
 * The platform's hot accounts (`world:chain`, `platform:revenue`) are N rows each, `<code>:<k>`:
 * every charge credits them, and one row per account made every charge in the deployment wait on
 * one row lock until COMMIT. A posting takes shard k = hash(its refId) mod N, the same k for both
 * accounts, and every later posting on the same transaction (the same manager) takes that k again:
 * a transaction then holds at most one shard of each, as it held the one row before, so the lock
 * order stays what it was. Balances and reports sum the shards (by kind: every row of kind `world`
 * or `revenue` is a shard, including the row each account had before migration LedgerShards).
 */
export const SHARDED_KINDS: Record<string, AccountKind> = { 'world:chain': 'world', 'platform:revenue': 'revenue' };

/** The shard row `k` of a sharded account. */
export function shardOf(account: AccountRef, k: number): AccountRef {
  return { ...account, code: `${account.code}:${k}`, sharded: false };
}

/** FNV-1a (32 bits) of the key, mod n: stable across processes and versions. */
export function shardIndex(key: string, n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % n;
}

/** A bounded debit spread over the shards that hold it: `k`'s own shard first, then by balance, largest first. */
export function spreadDebit(
  account: AccountRef,
  amount: bigint,
  k: number,
  shards: { code: string; balance: bigint }[],
): Leg[] | null {
  const own = `${account.code}:${k}`;
  const order = [...shards].sort((a, b) =>
    a.code === own ? -1 : b.code === own ? 1 : a.balance > b.balance ? -1 : a.balance < b.balance ? 1 : 0,
  );
  const legs: Leg[] = [];
  let left = -amount;
  for (const s of order) {
    if (left === 0n) break;
    const take = s.balance < left ? s.balance : left;
    if (take <= 0n) continue;
    legs.push({ account: { ...account, code: s.code, sharded: false }, amount: -take });
    left -= take;
  }
  return left === 0n ? legs : null;
}
