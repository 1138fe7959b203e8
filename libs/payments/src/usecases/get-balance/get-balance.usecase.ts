import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NotFoundException } from '@app/common';
import { Accounts, LedgerService } from '@app/ledger';
import { TransactionsRepository } from '../../repositories/transactions.repository';
import { WithdrawalReserve } from '../../withdrawal-reserve';

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

/** `GET /payments/balance/:agentId`: the agent's accounts from the ledger, its totals from the payment rows. */
@Injectable()
export class GetBalance {
  constructor(
    private readonly transactions: TransactionsRepository,
    private readonly ledger: LedgerService,
    private readonly reserve: WithdrawalReserve,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async execute(agentId: string): Promise<AgentBalance> {
    if (!(await this.transactions.agentExists(agentId)))
      throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', agentId);
    const codes = [
      Accounts.agentAvailable(agentId).code,
      Accounts.agentEscrow(agentId).code,
      Accounts.agentFrozen(agentId).code,
      Accounts.agentOwed(agentId).code,
    ];
    const balances = await this.ledger.balances(this.dataSource.manager, codes);
    const s = await this.transactions.earningsSummary(agentId);
    const reserve = await this.reserve.of(agentId, balances.get(codes[0])!);
    return {
      agentId,
      available: balances.get(codes[0])!,
      reserved: reserve.reserved,
      reservedUntil: reserve.reservedUntil,
      owed: -balances.get(codes[3])!,
      pending: balances.get(codes[1])!,
      totalEarned: s.earned,
      totalWithdrawn: s.withdrawn,
      totalDisputed: balances.get(codes[2])!,
      executionCount: s.executions,
      escrow: { pendingCount: s.heldCount, pendingTotal: s.heldTotal },
    };
  }
}
