import { Injectable } from '@nestjs/common';
import { Queryable } from '@app/database';
import { AccountRef, Leg } from './accounts';

/**
 * The order in which every posting locks its accounts (`ledger_post`, migration Disputes): the
 * platform's accounts and escrows first, then the others, each group by id. A charge locks its
 * escrow with the platform's accounts and then releases into available and owed, so anything that
 * takes both kinds takes them in that order.
 */
export const LEDGER_LOCK_ORDER = `(kind NOT IN ('world', 'revenue', 'escrow')), id`;

/** What `ledger_post` and `ledger_credit_agent` answer (balances by account code, as text). */
export interface PostedRow {
  transactionId: string;
  duplicate: boolean;
  balances: Record<string, string>;
}

export interface AccountRow {
  code: string;
  kind: string;
  balance: string;
}

/** The kinds whose accounts are shards (ledger-shards.ts): their partial index `ix_ledger_accounts_shards`. */
const SHARD_KINDS_SQL = `kind IN ('world', 'revenue')`;

/** By code, and by kind for sharded accounts (through their partial index); by code alone when no kind is asked. */
const selectAccounts = (kinds: string[]) =>
  `SELECT code, kind, balance::text FROM ledger_accounts WHERE code = ANY($1::text[])` +
  (kinds.length ? ` OR (${SHARD_KINDS_SQL} AND kind = ANY($2::text[]))` : '');
const params = (kinds: string[]) => (kinds.length ? [kinds] : []);

/**
 * The SQL of `ledger_accounts` and the posting functions (migrations LedgerPostFunction, Disputes).
 * Every method runs on the caller's manager (its transaction, or a pipelined one): each issues its
 * one statement before its first await, so a pipelined caller's statements keep their order.
 * The rules (balanced legs, bounds errors) stay in LedgerService.
 */
@Injectable()
export class LedgerRepository {
  async post(
    manager: Queryable,
    transactionId: string,
    input: { code: string; refId: string; metadata?: Record<string, unknown> },
    legs: Leg[],
  ): Promise<PostedRow> {
    const [{ result }] = (await manager.query(`SELECT ledger_post($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) AS result`, [
      transactionId,
      input.code,
      input.refId,
      input.metadata ?? {},
      legs.map((l) => l.account.code),
      legs.map((l) => l.account.kind),
      legs.map((l) => l.account.ownerId),
      legs.map((l) => l.account.min?.toString() ?? null),
      legs.map((l) => l.account.max?.toString() ?? null),
      legs.map((l) => l.amount.toString()),
    ])) as { result: PostedRow }[];
    return result;
  }

  async creditAgent(
    manager: Queryable,
    transactionId: string,
    input: { code: string; refId: string; amount: bigint; metadata?: Record<string, unknown> },
    accounts: AccountRef[],
  ): Promise<PostedRow & { repaid: string }> {
    const [{ result }] = (await manager.query(
      `SELECT ledger_credit_agent($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) AS result`,
      [
        transactionId,
        input.code,
        input.refId,
        input.metadata ?? {},
        accounts.map((a) => a.code),
        accounts.map((a) => a.kind),
        accounts.map((a) => a.ownerId),
        accounts.map((a) => a.min?.toString() ?? null),
        accounts.map((a) => a.max?.toString() ?? null),
        input.amount.toString(),
      ],
    )) as { result: PostedRow & { repaid: string } }[];
    return result;
  }

  /** Locks the accounts (by code, and every account of the given kinds) in LEDGER_LOCK_ORDER; the rows of those that exist. */
  lockBalances(manager: Queryable, codes: string[], kinds: string[] = []): Promise<AccountRow[]> {
    return manager.query(`${selectAccounts(kinds)} ORDER BY ${LEDGER_LOCK_ORDER} FOR UPDATE`, [
      codes,
      ...params(kinds),
    ]);
  }

  /** The accounts by code, and every account of the given kinds. */
  balances(manager: Queryable, codes: string[], kinds: string[] = []): Promise<AccountRow[]> {
    return manager.query(selectAccounts(kinds), [codes, ...params(kinds)]);
  }

  async openAccounts(manager: Queryable, accounts: AccountRef[]): Promise<void> {
    await manager.query(
      `INSERT INTO ledger_accounts (id, code, kind, owner_id, min_balance, max_balance)
       SELECT gen_random_uuid(), c, k, o, mn, mx FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[]) AS t(c, k, o, mn, mx)
       ON CONFLICT (code) DO NOTHING`,
      [
        accounts.map((a) => a.code),
        accounts.map((a) => a.kind),
        accounts.map((a) => a.ownerId),
        accounts.map((a) => a.min?.toString() ?? null),
        accounts.map((a) => a.max?.toString() ?? null),
      ],
    );
  }

  /** Whether (code, refId) was posted already. */
  async posted(manager: Queryable, code: string, refId: string): Promise<boolean> {
    const rows = await manager.query(`SELECT 1 FROM ledger_transactions WHERE code = $1 AND ref_id = $2`, [
      code,
      refId,
    ]);
    return rows.length > 0;
  }

  async lockFirst(manager: Queryable, code: string): Promise<void> {
    await manager.query(`SELECT 1 FROM ledger_accounts WHERE code = $1 FOR UPDATE`, [code]);
  }
}
