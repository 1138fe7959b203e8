import { Metrics } from '@app/metrics';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock, NotFoundException } from '@app/common';
import { Queryable, queryRows, TransactionRunner } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { jobId, JobProducer } from '@app/queues';
import { RefundEntity } from './entities/refund.entity';
import { PayoutSender, PayoutTable } from './payout.sender';

const REFUND_PAYOUT: PayoutTable = { table: 'refunds', toColumn: 'wallet', amountColumn: 'amount' };

export interface OpenRefund {
  id: string;
  wallet: string;
  amount: bigint;
  /**
   * `variable_price_unused`: a metered execution cost less than authorized; `chain_unspent`: what a
   * final chain's budget had left; `registration_unused`: a registration fee that moved without its agent;
   * `dispute`: a dispute the client won (all of the agent fee) or split (half of it), as far as the agent still held it (or an
   * admin advanced it); `dispute_repayment`: what the agent's later earnings repaid of the rest (agent_debts).
   */
  reason: 'variable_price_unused' | 'chain_unspent' | 'registration_unused' | 'dispute' | 'dispute_repayment';
  executionId: string | null;
  transactionId: string | null;
}

/**
 * Refunds of captured money to the payer. The posting that creates the liability
 * (`client:<wallet>:refund_payable`) belongs to the caller's transaction, which also opens the
 * row here; the worker then sends the transfer and `refund.paid` moves the amount back out.
 */
@Injectable()
export class RefundsService {
  constructor(
    private readonly payouts: PayoutSender,
    private readonly ledger: LedgerService,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    private readonly jobs: JobProducer,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly metrics: Metrics,
  ) {}

  /** Inside the caller's transaction: writes a pending refund; answers the row as written (nothing to read back). */
  async open(manager: Queryable, r: OpenRefund): Promise<RefundEntity> {
    await manager.query(`INSERT INTO refunds (id, wallet, amount, reason, execution_id, transaction_id, status) VALUES ($1, $2, $3, $4, $5, $6, 'pending')`, [
      r.id,
      r.wallet.toLowerCase(),
      r.amount.toString(),
      r.reason,
      r.executionId,
      r.transactionId,
    ]);
    return Object.assign(new RefundEntity(), {
      id: r.id,
      wallet: r.wallet.toLowerCase(),
      amount: r.amount,
      reason: r.reason,
      executionId: r.executionId,
      transactionId: r.transactionId,
      status: 'pending',
      txHash: null,
      signedTx: null,
      attempts: 0,
      claimToken: null,
      chainTxId: null,
      lockedUntil: null,
      error: null,
      createdAt: this.clock.now(),
      completedAt: null,
    });
  }

  /** After commit: wakes the worker; the sweeper re-enqueues if Redis loses the job. */
  async enqueue(id: string): Promise<void> {
    await this.jobs.wake('refund.process', { refundId: id }, { jobId: jobId('refund.process', id) });
  }

  async get(id: string): Promise<RefundEntity> {
    const r = await this.dataSource.manager.findOne(RefundEntity, { where: { id } });
    if (!r) throw new NotFoundException('NOT_FOUND', 'Refund', id);
    return r;
  }

  /** Worker step: send the refund; completion posts `refund.paid`. A reverted transfer leaves it owed, `failed`. */
  async process(id: string): Promise<'completed' | 'failed' | 'skipped'> {
    const state = await this.processOnce(id);
    if (state !== 'skipped') this.metrics.payouts.inc({ kind: 'refund', state });
    return state;
  }

  private async processOnce(id: string): Promise<'completed' | 'failed' | 'skipped'> {
    const outcome = await this.payouts.send(REFUND_PAYOUT, id);
    if (outcome.kind === 'skipped') return 'skipped';
    if (outcome.kind === 'failed') {
      await this.dataSource.query(`UPDATE refunds SET status = 'failed', error = $2, locked_until = NULL WHERE id = $1 AND status = 'processing' AND claim_token = $3`, [
        id,
        outcome.error,
        outcome.claimToken,
      ]);
      return 'failed';
    }
    const done = await this.tx.run(async (manager) => {
      const [r] = await queryRows<{ wallet: string; amount: string }>(
        manager,
        `UPDATE refunds SET status = 'completed', tx_hash = $2, completed_at = $3, locked_until = NULL
          WHERE id = $1 AND status = 'processing' AND claim_token = $4 RETURNING wallet, amount`,
        [id, outcome.txHash, this.clock.now(), outcome.claimToken],
      );
      if (!r) return false;
      await this.ledger.post(manager, {
        code: 'refund.paid',
        refId: id,
        legs: [
          { account: Accounts.clientRefundPayable(r.wallet), amount: -BigInt(r.amount) },
          { account: Accounts.worldChain(), amount: BigInt(r.amount) },
        ],
      });
      return true;
    });
    return done ? 'completed' : 'skipped';
  }

  /** Refunds that need the worker (for the sweeper). */
  dueForProcessing(limit = 200): Promise<string[]> {
    return this.payouts.due(REFUND_PAYOUT, limit);
  }
}
