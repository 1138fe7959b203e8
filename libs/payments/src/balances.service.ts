import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { NotFoundException, Page } from '@app/common';
import { Accounts, LedgerService } from '@app/ledger';
import { TransactionEntity } from './entities/transaction.entity';
import { WithdrawalReserve } from './withdrawal-reserve';

export interface AgentBalance {
  agentId: string;
  available: bigint;
  pending: bigint;
  totalEarned: bigint;
  totalWithdrawn: bigint;
  totalDisputed: bigint;
  /** Of `available`, what the rolling reserve keeps until the transactions' filing windows close. */
  reserved: bigint;
  reservedUntil: Date | null;
  /** What the agent owes payers and the platform (dispute refunds of earnings it had withdrawn), repaid from its next earnings. */
  owed: bigint;
  executionCount: number;
  escrow: { pendingCount: number; pendingTotal: bigint };
}

/** Read models over the ledger and the payment rows. */
@Injectable()
export class BalancesService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly reserve: WithdrawalReserve,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  private async assertAgent(agentId: string): Promise<void> {
    const rows = await this.dataSource.query(`SELECT 1 FROM agents WHERE id = $1`, [agentId]);
    if (rows.length === 0) throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', agentId);
  }

  async balance(agentId: string): Promise<AgentBalance> {
    await this.assertAgent(agentId);
    const codes = [
      Accounts.agentAvailable(agentId).code,
      Accounts.agentEscrow(agentId).code,
      Accounts.agentFrozen(agentId).code,
      Accounts.agentOwed(agentId).code,
    ];
    const balances = await this.ledger.balances(this.dataSource.manager, codes);
    const [row] = await this.dataSource.query(
      `SELECT (SELECT coalesce(sum(agent_earnings), 0) FROM transactions WHERE providing_agent_id = $1)::text AS earned,
              (SELECT count(*) FROM transactions WHERE providing_agent_id = $1)::int AS executions,
              (SELECT coalesce(sum(amount), 0) FROM withdrawals WHERE agent_id = $1 AND status = 'completed')::text AS withdrawn,
              (SELECT count(*) FROM escrow_holds WHERE agent_id = $1 AND status = 'held')::int AS held_count,
              (SELECT coalesce(sum(amount), 0) FROM escrow_holds WHERE agent_id = $1 AND status = 'held')::text AS held_total`,
      [agentId],
    );
    const reserve = await this.reserve.of(agentId, balances.get(codes[0])!);
    return {
      agentId,
      available: balances.get(codes[0])!,
      reserved: reserve.reserved,
      reservedUntil: reserve.reservedUntil,
      owed: -balances.get(codes[3])!,
      pending: balances.get(codes[1])!,
      totalEarned: BigInt(row.earned),
      totalWithdrawn: BigInt(row.withdrawn),
      totalDisputed: balances.get(codes[2])!,
      executionCount: row.executions,
      escrow: { pendingCount: row.held_count, pendingTotal: BigInt(row.held_total) },
    };
  }

  /**
   * Newest first. The page's ids come from the (agent, created_at, id) index alone, so a deep OFFSET
   * skips index entries, not rows; then only the page's rows are read.
   */
  async history(agentId: string, page: Page): Promise<TransactionEntity[]> {
    await this.assertAgent(agentId);
    const ids: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM transactions WHERE providing_agent_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [agentId, page.limit, page.offset],
    );
    if (ids.length === 0) return [];
    const rows = await this.dataSource.manager.find(TransactionEntity, { where: { id: In(ids.map((r) => r.id)) } });
    const byId = new Map(rows.map((t) => [t.id, t]));
    return ids.map((r) => byId.get(r.id)!).filter(Boolean);
  }

  async transaction(id: string): Promise<TransactionEntity> {
    const tx = await this.dataSource.manager.findOne(TransactionEntity, { where: { id } });
    if (!tx) throw new NotFoundException('TRANSACTION_NOT_FOUND', 'Transaction', id);
    return tx;
  }
}
