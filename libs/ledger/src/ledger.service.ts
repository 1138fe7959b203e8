import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppException, ErrorCode, formatMicros } from '@app/common';
import { pgErrorCode, Queryable } from '@app/database';
import { AccountRef, Accounts, Leg } from './accounts';
import { LedgerRepository, PostedRow } from './ledger.repository';

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

/**
 * The only code that changes balances (its SQL in LedgerRepository; the rules here). One call = one
 * balanced journal transaction, inside the caller's database transaction, in one round trip (the
 * `ledger_post` function, migration LedgerPostFunction): accounts are created on first use, locked in
 * LEDGER_LOCK_ORDER (no deadlocks), bounds are checked (and enforced again by CHECK constraints), and
 * entries record the balance after each leg.
 */
@Injectable()
export class LedgerService {
  constructor(private readonly repo: LedgerRepository) {}

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
    try {
      result = await this.repo.post(manager, transactionId, input, legs);
    } catch (err) {
      throw boundsError(err, legs) ?? err;
    }
    return {
      transactionId: result.transactionId,
      duplicate: result.duplicate,
      balances: new Map(Object.entries(result.balances).map(([code, balance]) => [code, BigInt(balance)])),
    };
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

  /** Locks the accounts' rows (FOR UPDATE) like lockBalances, and answers the balances of the rows that exist only. */
  async lockRows(manager: Queryable, codes: string[]): Promise<Map<string, bigint>> {
    const rows = await this.repo.lockBalances(manager, codes);
    return new Map(rows.map((r) => [r.code, BigInt(r.balance)]));
  }

  /** Current balances by code (0 for accounts never used). */
  async balances(manager: Queryable, codes: string[]): Promise<Map<string, bigint>> {
    const rows = await this.repo.balances(manager, codes);
    const out = new Map<string, bigint>(codes.map((c) => [c, 0n]));
    for (const r of rows) out.set(r.code, BigInt(r.balance));
    return out;
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
