import { Injectable } from '@nestjs/common';
import { newId } from '@app/common';
import { AppConfig } from '@app/config';
import { Queryable } from '@app/database';
import { AccountRef, Accounts, LedgerService, PostingResult } from '@app/ledger';
import { RefundsService } from '../refunds.service';
import { AgentDebtsRepository } from './agent-debts.repository';

export interface CreditInput {
  code: string;
  refId: string;
  from: AccountRef;
  agentId: string;
  amount: bigint;
  metadata?: Record<string, unknown>;
}

/**
 * Earnings reaching an agent (an escrow release, a dispute's release): what it owes is repaid first
 * (`ledger_credit_agent`: source -> owed, the rest available), oldest debt first; the part of a
 * repayment owed to a payer goes back to it as a refund (`client:<w>:refund_due` -> refund_payable,
 * a refund row) once it reaches the dust floor or completes the debt, so a stream of small
 * earnings does not become a stream of transfers. A debt to the platform (an admin's advance) is
 * settled by the repayment itself. Answers the refunds opened, for the caller to wake after commit.
 */
@Injectable()
export class AgentCredit {
  constructor(
    private readonly ledger: LedgerService,
    private readonly debts: AgentDebtsRepository,
    private readonly refunds: RefundsService,
    private readonly config: AppConfig,
  ) {}

  async credit(sql: Queryable, input: CreditInput): Promise<PostingResult & { repaid: bigint; refundIds: string[] }> {
    const credited = await this.ledger.creditAgent(sql, input);
    if (credited.repaid === 0n) return { ...credited, refundIds: [] };
    return { ...credited, refundIds: await this.repay(sql, input.agentId, credited.repaid, input.refId) };
  }

  private async repay(sql: Queryable, agentId: string, amount: bigint, cause: string): Promise<string[]> {
    const refundIds: string[] = [];
    let left = amount;
    for (const d of await this.debts.lockOpen(sql, agentId)) {
      if (left === 0n) break;
      const part = left < d.amount - d.repaid ? left : d.amount - d.repaid;
      left -= part;
      const repaid = d.repaid + part;
      const due = repaid - d.refunded;
      const refund = d.creditorWallet !== null && (due >= BigInt(this.config.refundDustMicro) || repaid === d.amount);
      if (refund) {
        const id = newId('rfd');
        const wallet = d.creditorWallet!;
        await this.refunds.open(sql, {
          id,
          wallet,
          amount: due,
          reason: 'dispute_repayment',
          executionId: null,
          transactionId: d.transactionId,
        });
        await this.ledger.post(sql, {
          code: 'debt.refunded',
          refId: id,
          legs: [
            { account: Accounts.clientRefundDue(wallet), amount: -due },
            { account: Accounts.clientRefundPayable(wallet), amount: due },
          ],
          metadata: { debtId: d.id, cause },
        });
        refundIds.push(id);
      }
      await this.debts.update(sql, d.id, repaid, refund ? repaid : d.refunded);
    }
    // The owed account and the debt rows move together (I11): a repayment no debt takes is a broken ledger.
    if (left > 0n) throw new Error(`agent ${agentId} repaid ${left} more than its open debts`);
    return refundIds;
  }
}
