import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Queryable, queryRows } from '@app/database';

/** An open debt as repayment sees it (locked). */
export interface OpenDebt {
  id: string;
  transactionId: string;
  creditorWallet: string | null;
  amount: bigint;
  repaid: bigint;
  refunded: bigint;
}

/** What a dispute's debt says now: still owed to the payer, and refunded to it so far from repayments. */
export interface DebtState {
  creditorWallet: string | null;
  amount: bigint;
  repaid: bigint;
  refunded: bigint;
}

const toBig = (v: unknown) => BigInt(v as string);

/** Every statement on `agent_debts`. */
@Injectable()
export class AgentDebtsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(
    sql: Queryable,
    d: {
      id: string;
      agentId: string;
      disputeId: string;
      transactionId: string;
      creditorWallet: string | null;
      amount: bigint;
    },
  ): Promise<void> {
    await sql.query(
      `INSERT INTO agent_debts (id, agent_id, dispute_id, transaction_id, creditor_wallet, amount) VALUES ($1, $2, $3, $4, $5, $6)`,
      [d.id, d.agentId, d.disputeId, d.transactionId, d.creditorWallet?.toLowerCase() ?? null, d.amount.toString()],
    );
  }

  /** Inside the caller's transaction: the agent's open debts, oldest first, locked (repayments queue on them). */
  async lockOpen(sql: Queryable, agentId: string): Promise<OpenDebt[]> {
    const rows = await queryRows<Record<string, unknown>>(
      sql,
      `SELECT id, transaction_id, creditor_wallet, amount::text, repaid::text, refunded::text FROM agent_debts
        WHERE agent_id = $1 AND repaid < amount ORDER BY created_at, id FOR UPDATE`,
      [agentId],
    );
    return rows.map((r) => ({
      id: r.id as string,
      transactionId: r.transaction_id as string,
      creditorWallet: r.creditor_wallet as string | null,
      amount: toBig(r.amount),
      repaid: toBig(r.repaid),
      refunded: toBig(r.refunded),
    }));
  }

  async update(sql: Queryable, id: string, repaid: bigint, refunded: bigint): Promise<void> {
    await sql.query(`UPDATE agent_debts SET repaid = $2, refunded = $3 WHERE id = $1`, [
      id,
      repaid.toString(),
      refunded.toString(),
    ]);
  }

  /** The debt a dispute left, if any. */
  async ofDispute(disputeId: string, sql: Queryable = this.dataSource): Promise<DebtState | null> {
    const [r] = await queryRows<Record<string, unknown>>(
      sql,
      `SELECT creditor_wallet, amount::text, repaid::text, refunded::text FROM agent_debts WHERE dispute_id = $1`,
      [disputeId],
    );
    return r
      ? {
          creditorWallet: r.creditor_wallet as string | null,
          amount: toBig(r.amount),
          repaid: toBig(r.repaid),
          refunded: toBig(r.refunded),
        }
      : null;
  }
}
