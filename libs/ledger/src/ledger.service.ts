import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppException, ErrorCode, formatMicros } from '@app/common';
import { AppConfig } from '@app/config';
import { pgErrorCode, Queryable } from '@app/database';
import { AccountRef, Accounts, Leg } from './accounts';
import { LedgerRepository, PostedRow } from './ledger.repository';
import { SHARDED_KINDS, shardIndex, shardOf, spreadDebit } from './ledger-shards';

export { LEDGER_LOCK_ORDER } from './ledger.repository';

export interface PostingInput {
  /** Business event kind, e.g. `execution.settled`. */
  code: string;
  /** The business object it is about; (code, refId) posts at most once. */
  refId: string;
  legs: Leg[];
  metadata?: Record<string, unknown>;
}

export interface PostingResult {
  transactionId: string;
  /** True when (code, refId) had been posted before: nothing moved this time. */
  duplicate: boolean;
  /** Balance of every touched account after the posting (micro-USDC), by code. */
  balances: Map<string, bigint>;
}

/** An account would leave its bounds. Carries the account so callers can pick their error code. */
export class LedgerBoundsError extends AppException {
  constructor(
    readonly account: AccountRef,
    readonly balance: bigint,
    readonly delta: bigint,
    code: ErrorCode = 'INSUFFICIENT_BALANCE',
  ) {
    super(code, `Insufficient balance in ${account.kind}`, {
      account: account.kind,
      balance: formatMicros(balance),
      requested: formatMicros(-delta > 0n ? -delta : delta),
    });
  }
}

export class UnbalancedPostingError extends Error {}

/** SQLSTATE raised by ledger_post when a leg would take its account out of bounds. */
const PG_LEDGER_BOUNDS = 'LB001';

function boundsError(err: unknown, legs: Leg[]): LedgerBoundsError | null {
  if (pgErrorCode(err) !== PG_LEDGER_BOUNDS) return null;
  // TypeORM wraps the driver's error; a pipelined transaction gets the driver's own.
  const e = err as { detail?: string; driverError?: { detail?: string } };
  const detail = JSON.parse(e.driverError?.detail ?? e.detail ?? '{}') as {
    code: string;
    balance: string;
    delta: string;
  };
  const leg = legs.find((l) => l.account.code === detail.code)!;
  return new LedgerBoundsError(leg.account, BigInt(detail.balance), BigInt(detail.delta));
}

/** The codes of plain accounts, and the kinds of the sharded ones among `codes`. */
function splitSharded(codes: string[]): [string[], string[]] {
  return [codes.filter((c) => !SHARDED_KINDS[c]), codes.filter((c) => SHARDED_KINDS[c]).map((c) => SHARDED_KINDS[c])];
}

/** Balances by code, the shards of each sharded account asked for (`kinds`) summed under its code. */
function sumShards(rows: { code: string; kind: string; balance: string }[], kinds: string[]): Map<string, bigint> {
  const byKind = new Map<string, string>(
    Object.entries(SHARDED_KINDS)
      .filter(([, kind]) => kinds.includes(kind))
      .map(([code, kind]) => [kind, code]),
  );
  const out = new Map<string, bigint>();
  for (const r of rows) {
    const code = byKind.get(r.kind) ?? r.code;
    out.set(code, (out.get(code) ?? 0n) + BigInt(r.balance));
  }
  return out;
}

/**
 * The only code that changes balances (its SQL in LedgerRepository; the rules here). One call = one
 * balanced journal transaction, inside the caller's database transaction, in one round trip (the
 * `ledger_post` function, migration LedgerPostFunction): accounts are created on first use, locked in
 * LEDGER_LOCK_ORDER (no deadlocks), bounds are checked (and enforced again by CHECK constraints), and
 * entries record the balance after each leg. Imported by libs/payments alone (ESLint: only payments posts;
 * docs/architecture.md, "Who posts to the ledger").
 */
@Injectable()
export class LedgerService {
  /** The platform shard each open transaction (its manager) took first: its later postings take it too. */
  private readonly pinned = new WeakMap<Queryable, number>();

  constructor(
    private readonly repo: LedgerRepository,
    private readonly config: AppConfig,
  ) {}

  async post(manager: Queryable, input: PostingInput): Promise<PostingResult> {
    const legs = input.legs.filter((l) => l.amount !== 0n);
    const sum = legs.reduce((s, l) => s + l.amount, 0n);
    if (sum !== 0n || legs.length < 2) {
      throw new UnbalancedPostingError(
        `posting ${input.code}/${input.refId} is unbalanced: ${legs.length} legs, sum ${sum}`,
      );
    }

    const transactionId = randomUUID();
    let result: PostedRow;
    // Issued before any await when no debit has to be spread (a pipelined caller's order holds).
    const placed = this.place(manager, input.refId, legs);
    let final = placed ?? legs;
    try {
      if (!placed) final = await this.spread(manager, input, legs);
      result = await this.repo.post(manager, transactionId, input, final);
    } catch (err) {
      throw boundsError(err, final) ?? err;
    }
    return {
      transactionId: result.transactionId,
      duplicate: result.duplicate,
      balances: new Map(Object.entries(result.balances).map(([code, balance]) => [code, BigInt(balance)])),
    };
  }

  /**
   * Legs on the platform's shards (ledger-shards.ts): a credit, or any leg of an unbounded account,
   * goes to this transaction's shard; null when a bounded account (revenue) is debited, which
   * `spread` takes from the shards that hold it.
   */
  private place(manager: Queryable, refId: string, legs: Leg[]): Leg[] | null {
    if (!legs.some((l) => l.account.sharded)) return legs;
    const k = this.shard(manager, refId);
    if (legs.some((l) => l.account.sharded && l.amount < 0n && l.account.min !== null)) return null;
    return legs.map((l) => (l.account.sharded ? { account: shardOf(l.account, k), amount: l.amount } : l));
  }

  /**
   * A debit of a bounded sharded account (revenue): locks every account of the posting, all that
   * account's shards included, in one statement (LEDGER_LOCK_ORDER), then takes the debit from the
   * shards that hold it. A posting already made, (code, refId), is left to ledger_post's duplicate
   * answer. Not for a pipelined caller (it awaits before posting), nor after a credit of the same
   * account in this transaction (its shard would already be held, out of order).
   */
  private async spread(manager: Queryable, input: { code: string; refId: string }, legs: Leg[]): Promise<Leg[]> {
    const k = this.shard(manager, input.refId);
    const place = (l: Leg): Leg => (l.account.sharded ? { account: shardOf(l.account, k), amount: l.amount } : l);
    const debits = legs.filter((l) => l.account.sharded && l.amount < 0n && l.account.min !== null);
    if (await this.repo.posted(manager, input.code, input.refId)) return legs.map(place);
    const others = legs.filter((l) => !debits.includes(l)).map((l) => place(l).account.code);
    const rows = await this.repo.lockBalances(manager, others, [...new Set(debits.map((l) => l.account.kind))]);
    const out: Leg[] = legs.filter((l) => !debits.includes(l)).map(place);
    const balances = new Map(rows.map((r) => [r.code, BigInt(r.balance)]));
    for (const leg of debits) {
      const shards = rows
        .filter((r) => r.kind === leg.account.kind)
        .map((r) => ({ code: r.code, balance: balances.get(r.code)! }));
      const spread = spreadDebit(leg.account, leg.amount, k, shards);
      const total = shards.reduce((sum, r) => sum + r.balance, 0n);
      if (!spread) throw new LedgerBoundsError(leg.account, total, leg.amount);
      for (const l of spread) balances.set(l.account.code, balances.get(l.account.code)! + l.amount);
      out.push(...spread);
    }
    return out;
  }

  private shard(manager: Queryable, refId: string): number {
    let k = this.pinned.get(manager);
    if (k === undefined) this.pinned.set(manager, (k = shardIndex(refId, this.config.ledgerShards)));
    return k;
  }

  /**
   * Earnings reaching an agent (`amount` out of `from`: its escrow on a release, its dispute freeze
   * when a dispute releases them): the agent's debt (`owed`: what lost disputes refunded of earnings it had
   * withdrawn; payments' AgentCredit then settles the debts it repaid, and is the only caller)
   * is repaid first and the rest becomes available. One statement (`ledger_credit_agent`, migration
   * Disputes): it locks the three accounts in LEDGER_LOCK_ORDER and reads the debt under that lock.
   */
  async creditAgent(
    manager: Queryable,
    input: {
      code: string;
      refId: string;
      from: AccountRef;
      agentId: string;
      amount: bigint;
      metadata?: Record<string, unknown>;
    },
  ): Promise<PostingResult & { repaid: bigint }> {
    if (input.amount <= 0n)
      throw new UnbalancedPostingError(`credit ${input.code}/${input.refId} must move a positive amount`);
    const accounts = [input.from, Accounts.agentAvailable(input.agentId), Accounts.agentOwed(input.agentId)];
    let result: PostedRow & { repaid: string };
    try {
      result = await this.repo.creditAgent(manager, randomUUID(), input, accounts);
    } catch (err) {
      throw (
        boundsError(
          err,
          accounts.map((account) => ({ account, amount: 0n })),
        ) ?? err
      );
    }
    return {
      transactionId: result.transactionId,
      duplicate: result.duplicate,
      balances: new Map(Object.entries(result.balances).map(([code, balance]) => [code, BigInt(balance)])),
      repaid: result.duplicate ? 0n : BigInt(result.repaid),
    };
  }

  /**
   * Inside the caller's transaction: locks the given accounts in the order every posting takes
   * (LEDGER_LOCK_ORDER) and answers their balances: for a posting whose amounts depend on them, or
   * before several postings, so that together they still take their accounts in that order.
   */
  async lockBalances(manager: Queryable, codes: string[]): Promise<Map<string, bigint>> {
    const rows = await this.lockRows(manager, codes);
    return new Map(codes.map((c) => [c, rows.get(c) ?? 0n]));
  }

  /**
   * Locks the accounts' rows (FOR UPDATE) like lockBalances, and answers the balances of the rows that
   * exist only. A sharded account's code locks all its shards and answers their sum.
   */
  async lockRows(manager: Queryable, codes: string[]): Promise<Map<string, bigint>> {
    const [plain, kinds] = splitSharded(codes);
    return sumShards(await this.repo.lockBalances(manager, plain, kinds), kinds);
  }

  /** Current balances by code (0 for accounts never used); a sharded account's is the sum of its shards. */
  async balances(manager: Queryable, codes: string[]): Promise<Map<string, bigint>> {
    const [plain, kinds] = splitSharded(codes);
    const rows = sumShards(await this.repo.balances(manager, plain, kinds), kinds);
    return new Map<string, bigint>(codes.map((c) => [c, rows.get(c) ?? 0n]));
  }

  /**
   * Inside the caller's transaction: creates accounts that do not exist yet. A posting creates
   * missing accounts on first use, but then locks them after the ones it already holds (out of
   * order): opening an owner's accounts when the owner is created keeps concurrent first postings
   * (an agent's first charges and releases) in LEDGER_LOCK_ORDER.
   */
  async openAccounts(manager: Queryable, accounts: AccountRef[]): Promise<void> {
    await this.repo.openAccounts(manager, accounts);
  }

  /**
   * Inside the caller's transaction: locks one account (if it exists) before a posting that takes
   * several, so this transaction takes them in the order other transactions do (a posting locks its
   * accounts by id, which is not everyone's order).
   */
  async lockFirst(manager: Queryable, code: string): Promise<void> {
    await this.repo.lockFirst(manager, code);
  }

  async balance(manager: Queryable, code: string): Promise<bigint> {
    return (await this.balances(manager, [code])).get(code)!;
  }
}
