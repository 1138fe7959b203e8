import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Page } from '@app/common';
import { Queryable, queryRows } from '@app/database';
import { DisputeEntity, DisputeResolution, DisputeStatus } from './entities/dispute.entity';

const COLUMNS = `id, transaction_id AS "transactionId", client_wallet AS "clientWallet", agent_id AS "agentId", status, reason, evidence,
  agent_response AS "agentResponse", agent_evidence AS "agentEvidence", responded_at AS "respondedAt", frozen_amount::text AS "frozenAmount",
  advanced_amount::text AS "advancedAmount", frozen_from AS "frozenFrom", resolution, platform_evidence AS "platformEvidence",
  created_at AS "createdAt", respond_by AS "respondBy", resolved_at AS "resolvedAt", payer_proof AS "payerProof", verified`;

function toEntity(row: Record<string, unknown>): DisputeEntity {
  return Object.assign(new DisputeEntity(), row, {
    frozenAmount: BigInt(row.frozenAmount as string),
    advancedAmount: BigInt(row.advancedAmount as string),
  });
}

/** Every statement on `disputes`. */
@Injectable()
export class DisputesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(
    sql: Queryable,
    d: Omit<DisputeEntity, 'agentResponse' | 'agentEvidence' | 'respondedAt' | 'resolution' | 'resolvedAt' | 'status'>,
  ): Promise<void> {
    await sql.query(
      `INSERT INTO disputes (id, transaction_id, client_wallet, agent_id, status, reason, evidence, frozen_amount, advanced_amount, frozen_from,
                             platform_evidence, created_at, respond_by, payer_proof, verified)
       VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [
        d.id,
        d.transactionId,
        d.clientWallet,
        d.agentId,
        d.reason,
        d.evidence,
        d.frozenAmount.toString(),
        d.advancedAmount.toString(),
        d.frozenFrom,
        d.platformEvidence,
        d.createdAt,
        d.respondBy,
        d.payerProof,
        d.verified,
      ],
    );
  }

  /**
   * The payer's signature confirms an unverified dispute, once, while it is open: its reason and evidence become
   * the payer's, and a pending one gets a response window from now. Null: it was not an open unverified dispute.
   */
  async confirm(
    sql: Queryable,
    id: string,
    c: { reason: string; evidence: string | null; respondBy: Date },
  ): Promise<DisputeEntity | null> {
    const [row] = await queryRows<Record<string, unknown>>(
      sql,
      `UPDATE disputes SET verified = true, payer_proof = 'signature', reason = $2, evidence = $3,
              respond_by = CASE WHEN status = 'pending' THEN $4 ELSE respond_by END
        WHERE id = $1 AND NOT verified AND status <> 'resolved' RETURNING ${COLUMNS}`,
      [id, c.reason, c.evidence, c.respondBy],
    );
    return row ? toEntity(row) : null;
  }

  /** What was frozen for the dispute after filing (the payer's confirmation, or an admin's refund of an unverified one). */
  async recordFreeze(sql: Queryable, id: string, f: { frozen: bigint; from: 'escrow' | 'available' }): Promise<void> {
    await sql.query(`UPDATE disputes SET frozen_amount = $2, frozen_from = $3 WHERE id = $1`, [
      id,
      f.frozen.toString(),
      f.from,
    ]);
  }

  async findById(id: string, sql: Queryable = this.dataSource): Promise<DisputeEntity | null> {
    const [row] = await queryRows<Record<string, unknown>>(sql, `SELECT ${COLUMNS} FROM disputes WHERE id = $1`, [id]);
    return row ? toEntity(row) : null;
  }

  /** The id of the transaction's dispute (one at most: ux on transaction_id), null: none. */
  async idOfTransaction(transactionId: string, sql: Queryable = this.dataSource): Promise<string | null> {
    const [row] = await queryRows<{ id: string }>(sql, `SELECT id FROM disputes WHERE transaction_id = $1`, [
      transactionId,
    ]);
    return row?.id ?? null;
  }

  /** Inside a transaction: the dispute, locked until commit (resolutions queue on it). */
  async lock(sql: Queryable, id: string): Promise<DisputeEntity | null> {
    const [row] = await queryRows<Record<string, unknown>>(
      sql,
      `SELECT ${COLUMNS} FROM disputes WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return row ? toEntity(row) : null;
  }

  /** The agent's answer, once, while the dispute is pending and its window open. Answers the row, or null when nothing matched. */
  async respond(
    sql: Queryable,
    id: string,
    r: { response: string; evidence: string | null; at: Date },
  ): Promise<DisputeEntity | null> {
    const [row] = await queryRows<Record<string, unknown>>(
      sql,
      `UPDATE disputes SET status = 'responded', agent_response = $2, agent_evidence = $3, responded_at = $4
        WHERE id = $1 AND status = 'pending' AND respond_by >= $4 RETURNING ${COLUMNS}`,
      [id, r.response, r.evidence, r.at],
    );
    return row ? toEntity(row) : null;
  }

  async resolve(sql: Queryable, id: string, resolution: DisputeResolution, at: Date, advanced: bigint): Promise<void> {
    await sql.query(
      `UPDATE disputes SET status = 'resolved', resolution = $2, resolved_at = $3, advanced_amount = $4 WHERE id = $1 AND status <> 'resolved'`,
      [id, resolution, at, advanced.toString()],
    );
  }

  /** An agent's (ix_disputes_agent_created) or a paying wallet's (ix_disputes_client), newest first, with the total. */
  async listBy(
    who: { agentId: string } | { clientWallet: string },
    status: DisputeStatus | undefined,
    page: Page,
  ): Promise<{ disputes: DisputeEntity[]; total: number }> {
    const where = `${'agentId' in who ? 'agent_id' : 'client_wallet'} = $1 AND ($2::text IS NULL OR status = $2)`;
    const id = 'agentId' in who ? who.agentId : who.clientWallet.toLowerCase();
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query(
        `SELECT ${COLUMNS} FROM disputes WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
        [id, status ?? null, page.limit, page.offset],
      ) as Promise<Record<string, unknown>[]>,
      this.dataSource.query(`SELECT count(*)::int AS total FROM disputes WHERE ${where}`, [
        id,
        status ?? null,
      ]) as Promise<{ total: number }[]>,
    ]);
    return { disputes: rows.map(toEntity), total };
  }

  /** Disputes awaiting a decision (pending or responded), oldest first, with their total (ix_disputes_open_created). */
  async listOpen(page: Page): Promise<{ disputes: DisputeEntity[]; total: number }> {
    const [rows, [{ total }]] = await Promise.all([
      queryRows<Record<string, unknown>>(
        this.dataSource.manager,
        `SELECT ${COLUMNS} FROM disputes WHERE status <> 'resolved' ORDER BY created_at, id LIMIT $1 OFFSET $2`,
        [page.limit, page.offset],
      ),
      queryRows<{ total: number }>(
        this.dataSource.manager,
        `SELECT count(*)::int AS total FROM disputes WHERE status <> 'resolved'`,
      ),
    ]);
    return { disputes: rows.map(toEntity), total };
  }

  /** Whether the agent exists (a read of the agents lib's table, as balances and reputation reads do). */
  async agentExists(agentId: string): Promise<boolean> {
    return (await this.dataSource.query(`SELECT 1 FROM agents WHERE id = $1`, [agentId])).length > 0;
  }

  /** The local test clock: pending disputes' response deadlines `seconds` earlier (in the caller's transaction). Answers how many. */
  async shiftBack(sql: Queryable, seconds: number): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      sql,
      `UPDATE disputes SET respond_by = respond_by - make_interval(secs => $1::int) WHERE status = 'pending' RETURNING id`,
      [seconds],
    );
    return rows.length;
  }

  /** Pending verified disputes whose response window has closed (the sweeper's; an unverified one waits for an admin). */
  async overdue(now: Date, limit = 200): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM disputes WHERE status = 'pending' AND respond_by <= $1 AND verified ORDER BY respond_by LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => r.id);
  }
}
