import { DataSource } from 'typeorm';
import { Queryable, queryRows } from '@app/database';
import { ChainTxKind, ChainTxStatus } from './chain-tx.entity';
import { Unfinished } from '../unfinished';

export interface ChainTxRow {
  id: string;
  wallet: string;
  nonce: bigint;
  kind: ChainTxKind;
  items: number;
  txHash: string;
  signedTx: string;
  status: ChainTxStatus;
}

const COLUMNS = `id, wallet, nonce::text AS nonce, kind, items, tx_hash AS "txHash", signed_tx AS "signedTx", status`;

/** Every statement on `chain_nonces` and `chain_txs`. */
export class ChainTxsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Creates the wallet's sequence at the chain's count, or moves it up to it (never down: our own unsent nonces stay ours). */
  async raiseNonce(wallet: string, chainNonce: bigint): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO chain_nonces (wallet, next_nonce) VALUES ($1, $2)
       ON CONFLICT (wallet) DO UPDATE SET next_nonce = GREATEST(chain_nonces.next_nonce, EXCLUDED.next_nonce), updated_at = now()`,
      [wallet, chainNonce.toString()],
    );
  }

  /** Inside the transaction that persists the signed transaction: takes the next nonce (the row stays locked until commit). */
  async takeNonce(sql: Queryable, wallet: string): Promise<bigint | null> {
    const [row] = await queryRows<{ nonce: string }>(
      sql,
      `UPDATE chain_nonces SET next_nonce = next_nonce + 1, updated_at = now() WHERE wallet = $1 RETURNING next_nonce - 1 AS nonce`,
      [wallet],
    );
    return row ? BigInt(row.nonce) : null;
  }

  insert(sql: Queryable, row: ChainTxRow, resendAt: Date): Promise<unknown> {
    return sql.query(
      `INSERT INTO chain_txs (id, wallet, nonce, kind, items, tx_hash, signed_tx, status, resend_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'signed', $8)`,
      [row.id, row.wallet, row.nonce.toString(), row.kind, row.items, row.txHash, row.signedTx, resendAt],
    );
  }

  async get(id: string): Promise<ChainTxRow | null> {
    const [row] = await queryRows<ChainTxRow & { nonce: string }>(
      this.dataSource.manager,
      `SELECT ${COLUMNS} FROM chain_txs WHERE id = $1`,
      [id],
    );
    return row ? { ...row, nonce: BigInt(row.nonce) } : null;
  }

  /** The persisted transaction with this hash (a payment holds the hash of the one carrying it). */
  async byHash(txHash: string): Promise<ChainTxRow | null> {
    const [row] = await queryRows<ChainTxRow & { nonce: string }>(
      this.dataSource.manager,
      `SELECT ${COLUMNS} FROM chain_txs WHERE tx_hash = $1`,
      [txHash.toLowerCase()],
    );
    return row ? { ...row, nonce: BigInt(row.nonce) } : null;
  }

  /**
   * Records the chain's decision on a signed transaction (once: a decided row never changes); true if this call recorded
   * it. `txHash`: the transaction that carried it when another did (a wallet's "speed up" of a transfer).
   */
  async finish(
    id: string,
    status: Exclude<ChainTxStatus, 'signed'>,
    receipt: { blockNumber: bigint; gasUsed: bigint } | null,
    txHash?: string,
  ): Promise<boolean> {
    const [, changed] = (await this.dataSource.query(
      `UPDATE chain_txs SET status = $2, block_number = $3, gas_used = $4, tx_hash = COALESCE($5, tx_hash),
         finished_at = now() WHERE id = $1 AND status = 'signed'`,
      [id, status, receipt?.blockNumber.toString() ?? null, receipt?.gasUsed.toString() ?? null, txHash ?? null],
    )) as [unknown, number];
    return changed === 1;
  }

  async postpone(id: string, resendAt: Date): Promise<void> {
    await this.dataSource.query(`UPDATE chain_txs SET resend_at = $2 WHERE id = $1 AND status = 'signed'`, [
      id,
      resendAt,
    ]);
  }

  /** Every signed, undecided transaction of a wallet, lowest nonce first. */
  async open(wallet: string): Promise<ChainTxRow[]> {
    const rows = await queryRows<ChainTxRow & { nonce: string }>(
      this.dataSource.manager,
      `SELECT ${COLUMNS} FROM chain_txs WHERE wallet = $1 AND status = 'signed' ORDER BY nonce`,
      [wallet],
    );
    return rows.map((r) => ({ ...r, nonce: BigInt(r.nonce) }));
  }

  /** Signed transactions the chain has not decided on by their resend time (for the sweeper), lowest nonce first. */
  async due(now: Date, limit: number): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `SELECT id FROM chain_txs WHERE status = 'signed' AND resend_at <= $1 ORDER BY nonce LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => r.id);
  }
  /** Signed transactions the chain has not decided on, oldest first (ix_chain_txs_open), with their total. */
  async oldestOpen(limit: number): Promise<Unfinished> {
    const [rows, [{ total }]] = await Promise.all([
      queryRows<{ id: string; status: string; createdAt: Date }>(
        this.dataSource.manager,
        `SELECT id, status, created_at AS "createdAt" FROM chain_txs
          WHERE status = 'signed' ORDER BY created_at, id LIMIT $1`,
        [limit],
      ),
      queryRows<{ total: number }>(
        this.dataSource.manager,
        `SELECT count(*)::int AS total FROM chain_txs WHERE status = 'signed'`,
      ),
    ]);
    return { rows: rows.map((r) => ({ ...r, amount: null, error: null })), total };
  }
}
