import { Metrics } from '@app/metrics';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppException, Clock, NotFoundException } from '@app/common';
import { AppConfig } from '@app/config';
import { Queryable, queryRows, TransactionRunner } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { jobId, JobProducer } from '@app/queues';
import { RefundEntity } from './entities/refund.entity';
import { PayoutSender, PayoutTable } from '@app/onchain';

/** A refund's transfer sends its own amount plus the held refunds it carries. */
/**
 * A failed refund made pending again. Its last transfer is final (it reverted, or none was signed),
 * so the row forgets it and the sender signs a new one; its attempts keep counting (the backoff grows).
 */
const REDRIVE = `status = 'pending', retry_at = NULL, chain_tx_id = NULL, tx_hash = NULL, signed_tx = NULL, claim_token = NULL`;

const REFUND_PAYOUT: PayoutTable = {
  table: 'refunds',
  toColumn: 'wallet',
  amountColumn: 'coalesce(payout_amount, amount)',
};
/** A failed refund is sent again after 1 min, doubling per attempt, at most an hour apart. */
const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 3_600_000;

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
    private readonly config: AppConfig,
  ) {}

  /**
   * Inside the caller's transaction, one statement (pipeline- and oneTrip-safe): writes the refund.
   * Below the dust floor it is `held` (owed, not sent); otherwise `pending`, carrying the payer's
   * held refunds in its transfer (`payout_amount`). Answers the row as written.
   */
  async open(manager: Queryable, r: OpenRefund): Promise<RefundEntity> {
    const sendable = r.amount >= BigInt(this.config.refundDustMicro);
    await manager.query(
      `WITH carried AS (
         UPDATE refunds SET carried_by = $1 WHERE $7::boolean AND wallet = $2 AND status = 'held' AND carried_by IS NULL RETURNING amount)
       INSERT INTO refunds (id, wallet, amount, reason, execution_id, transaction_id, status, payout_amount)
       SELECT $1, $2, $3, $4, $5, $6, CASE WHEN $7::boolean THEN 'pending' ELSE 'held' END,
              CASE WHEN $7::boolean THEN $3::bigint + coalesce((SELECT sum(amount) FROM carried), 0) END`,
      [r.id, r.wallet.toLowerCase(), r.amount.toString(), r.reason, r.executionId, r.transactionId, sendable],
    );
    return Object.assign(new RefundEntity(), {
      id: r.id,
      wallet: r.wallet.toLowerCase(),
      amount: r.amount,
      reason: r.reason,
      executionId: r.executionId,
      transactionId: r.transactionId,
      status: sendable ? 'pending' : 'held',
      txHash: null,
      signedTx: null,
      attempts: 0,
      claimToken: null,
      chainTxId: null,
      carriedBy: null,
      payoutAmount: null,
      retryAt: null,
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
      // Still owed: sent again at retry_at (the sweeper re-drives it), or at once by an admin.
      await this.dataSource.query(
        `UPDATE refunds SET status = 'failed', error = $2, locked_until = NULL,
                retry_at = $4::timestamptz + make_interval(secs => least($5::bigint * power(2, greatest(attempts - 1, 0)), $6::bigint) / 1000.0)
          WHERE id = $1 AND status = 'processing' AND claim_token = $3`,
        [id, outcome.error, outcome.claimToken, this.clock.now(), RETRY_BASE_MS, RETRY_MAX_MS],
      );
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
      // The held refunds its transfer carried were paid by it too.
      const carried = await queryRows<{ id: string; wallet: string; amount: string }>(
        manager,
        `UPDATE refunds SET status = 'completed', tx_hash = $2, completed_at = $3 WHERE carried_by = $1 AND status = 'held' RETURNING id, wallet, amount`,
        [id, outcome.txHash, this.clock.now()],
      );
      for (const paid of [{ id, ...r }, ...carried]) {
        await this.ledger.post(manager, {
          code: 'refund.paid',
          refId: paid.id,
          legs: [
            { account: Accounts.clientRefundPayable(paid.wallet), amount: -BigInt(paid.amount) },
            { account: Accounts.worldChain(), amount: BigInt(paid.amount) },
          ],
          ...(paid.id !== id ? { metadata: { carriedBy: id } } : {}),
        });
      }
      return true;
    });
    return done ? 'completed' : 'skipped';
  }

  /** Refunds that need the worker (for the sweeper): failed ones whose retry time has come are re-driven first. */
  async dueForProcessing(limit = 200): Promise<string[]> {
    await this.dataSource.query(
      `UPDATE refunds SET ${REDRIVE} WHERE id IN (SELECT id FROM refunds WHERE status = 'failed' AND retry_at <= $1 ORDER BY retry_at LIMIT $2)`,
      [this.clock.now(), limit],
    );
    return this.payouts.due(REFUND_PAYOUT, limit);
  }

  /**
   * An admin's re-drive (`POST /admin/refunds/:id/retry`): a failed refund pending again at once, or
   * a held one (below the dust floor, not carried yet) sent alone on request; then woken.
   * INVALID_STATE for any other state; NOT_FOUND when there is none.
   */
  async retry(id: string): Promise<RefundEntity> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `UPDATE refunds SET ${REDRIVE}, payout_amount = CASE WHEN status = 'held' THEN amount ELSE payout_amount END
        WHERE id = $1 AND (status = 'failed' OR (status = 'held' AND carried_by IS NULL)) RETURNING id`,
      [id],
    );
    if (rows.length === 0) {
      const current = await this.get(id);
      throw new AppException(
        'INVALID_STATE',
        `Only a failed or held refund can be sent now (status ${current.status})`,
        { status: current.status },
      );
    }
    await this.enqueue(id);
    return this.get(id);
  }
}
