import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { AppException, ErrorCode, formatMicros } from '@app/common';
import { AccountRef, Leg } from './accounts';

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

interface LockedAccount {
  id: string;
  code: string;
  balance: bigint;
  version: bigint;
}

/**
 * The only code that changes balances. One call = one balanced journal transaction, inside
 * the caller's database transaction: accounts are created on first use, locked in id order
 * (no deadlocks), bounds are checked (and enforced again by CHECK constraints), and entries
 * record the balance after each leg.
 */
@Injectable()
export class LedgerService {
  async post(manager: EntityManager, input: PostingInput): Promise<PostingResult> {
    const legs = input.legs.filter((l) => l.amount !== 0n);
    const sum = legs.reduce((s, l) => s + l.amount, 0n);
    if (sum !== 0n || legs.length < 2) {
      throw new UnbalancedPostingError(`posting ${input.code}/${input.refId} is unbalanced: ${legs.length} legs, sum ${sum}`);
    }

    const transactionId = randomUUID();
    const inserted: unknown[] = await manager.query(
      `INSERT INTO ledger_transactions (id, code, ref_id, metadata) VALUES ($1, $2, $3, $4)
       ON CONFLICT (code, ref_id) DO NOTHING RETURNING id`,
      [transactionId, input.code, input.refId, input.metadata ?? {}],
    );
    if (inserted.length === 0) {
      const [existing] = await manager.query(`SELECT id FROM ledger_transactions WHERE code = $1 AND ref_id = $2`, [input.code, input.refId]);
      return { transactionId: existing.id, duplicate: true, balances: new Map() };
    }

    const refs = new Map<string, AccountRef>();
    for (const l of legs) refs.set(l.account.code, l.account);
    const accounts = [...refs.values()];
    await manager.query(
      `INSERT INTO ledger_accounts (id, code, kind, owner_id, min_balance, max_balance)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[])
       ON CONFLICT (code) DO NOTHING`,
      [
        accounts.map(() => randomUUID()),
        accounts.map((a) => a.code),
        accounts.map((a) => a.kind),
        accounts.map((a) => a.ownerId),
        accounts.map((a) => a.min?.toString() ?? null),
        accounts.map((a) => a.max?.toString() ?? null),
      ],
    );
    const lockedRows: { id: string; code: string; balance: string; version: string }[] = await manager.query(
      `SELECT id, code, balance, version FROM ledger_accounts WHERE code = ANY($1::text[]) ORDER BY id FOR UPDATE`,
      [accounts.map((a) => a.code)],
    );
    const locked = new Map<string, LockedAccount>(
      lockedRows.map((r) => [r.code, { id: r.id, code: r.code, balance: BigInt(r.balance), version: BigInt(r.version) }]),
    );

    const entries: { accountId: string; amount: bigint; balanceAfter: bigint; version: bigint }[] = [];
    for (const leg of legs) {
      const acc = locked.get(leg.account.code)!;
      const next = acc.balance + leg.amount;
      const { min, max } = leg.account;
      if ((min !== null && next < min) || (max !== null && next > max)) {
        throw new LedgerBoundsError(leg.account, acc.balance, leg.amount);
      }
      acc.balance = next;
      acc.version += 1n;
      entries.push({ accountId: acc.id, amount: leg.amount, balanceAfter: next, version: acc.version });
    }

    const touched = [...locked.values()];
    await manager.query(
      `UPDATE ledger_accounts a SET balance = d.balance, version = d.version
         FROM (SELECT unnest($1::uuid[]) AS id, unnest($2::bigint[]) AS balance, unnest($3::bigint[]) AS version) d
        WHERE a.id = d.id`,
      [touched.map((a) => a.id), touched.map((a) => a.balance.toString()), touched.map((a) => a.version.toString())],
    );
    await manager.query(
      `INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, account_version)
       SELECT $1, * FROM unnest($2::uuid[], $3::bigint[], $4::bigint[], $5::bigint[])`,
      [
        transactionId,
        entries.map((e) => e.accountId),
        entries.map((e) => e.amount.toString()),
        entries.map((e) => e.balanceAfter.toString()),
        entries.map((e) => e.version.toString()),
      ],
    );
    return { transactionId, duplicate: false, balances: new Map(touched.map((a) => [a.code, a.balance])) };
  }

  /** Current balances by code (0 for accounts never used). */
  async balances(manager: EntityManager, codes: string[]): Promise<Map<string, bigint>> {
    const rows: { code: string; balance: string }[] = await manager.query(`SELECT code, balance FROM ledger_accounts WHERE code = ANY($1::text[])`, [codes]);
    const out = new Map<string, bigint>(codes.map((c) => [c, 0n]));
    for (const r of rows) out.set(r.code, BigInt(r.balance));
    return out;
  }

  async balance(manager: EntityManager, code: string): Promise<bigint> {
    return (await this.balances(manager, [code])).get(code)!;
  }
}
