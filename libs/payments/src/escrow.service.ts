import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock, formatMicros, newId } from '@app/common';
import { AppConfig } from '@app/config';
import { allWrites, Queryable, queryRows, TransactionRunner } from '@app/database';
import { AccountRef, Accounts, LedgerService } from '@app/ledger';
import { OutboxService } from '@app/outbox';
import { jobId, JobProducer } from '@app/queues';
import { INITIAL_REPUTATION, reputationTier } from '@app/reputation';
import { EscrowHoldEntity } from './entities/escrow-hold.entity';
import { TransactionEntity } from './entities/transaction.entity';
import { splitAgentFee } from './fees';
import { RefundEntity } from './entities/refund.entity';
import { RefundsService } from './refunds.service';
import { AgentCredit } from './debts/agent-credit';

export interface ExecutionCharge {
  /** The `tx_` id to create (chosen by the caller so it can be returned before commit). */
  transactionId?: string;
  paymentId: string | null;
  payerWallet: string;
  requestingAgent: string;
  agentId: string;
  /**
   * The score that sets the hold. Left out (the charger): the agent's score at the charge, read by
   * the statement that writes the hold, so a score moved since the target was cached still decides.
   */
  agentReputation?: number;
  /**
   * Whether a hold due now may be released inside this transaction (it waits for the hold's
   * result). False for a one-trip transaction (COMMIT already sent): a hold due now comes back
   * `held` with `releaseAt` <= now, and the caller releases it right after commit.
   */
  releaseInline?: boolean;
  capabilityId: string;
  agentFee: bigint;
  platformFee: bigint;
  executionTimeMs: number;
  /**
   * Variable pricing: the execution this charge is for, and the agent fee the payment covered
   * (the cap). What was paid above `agentFee` is owed back to the payer as a refund.
   */
  refund?: {
    executionId: string;
    authorizedAgentFee: bigint;
    /** The `rfd_` id to use if a refund is owed. */ id?: string;
  };
  /**
   * Where the money comes from when it is not an x402 payment arriving from the chain: a chain's
   * budget (`from` chain:budget), which pays only what the execution cost; the unused part of its
   * reservation never left it, so it is neither moved nor refunded.
   */
  source?: { from: AccountRef };
}

/** Holds are released by one delayed job per bucket of this length (a hold is released at most this late). */
export const RELEASE_BUCKET_MS = 5_000;

/**
 * Charged executions and the escrow of their earnings: posting the split, holding earnings by
 * the agent's tier, releasing them (delayed job, sweeper as a safety net).
 */
@Injectable()
export class EscrowService {
  private readonly scheduledBuckets = new Set<number>();

  constructor(
    private readonly ledger: LedgerService,
    private readonly outbox: OutboxService,
    private readonly tx: TransactionRunner,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly jobs: JobProducer,
    private readonly refunds: RefundsService,
    private readonly credit: AgentCredit,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * After commit: makes sure a delayed `escrow.release-due` job runs at the end of the hold's
   * RELEASE_BUCKET_MS bucket. One job per bucket (deterministic id across processes, and
   * remembered here so a busy process does not ask Redis again for every charge), not one per
   * hold; the sweeper covers a lost job.
   */
  async scheduleRelease(hold: { id: string; releaseAt: Date; status: string }): Promise<void> {
    if (hold.status !== 'held') return;
    const now = this.clock.nowMs();
    const bucket = Math.ceil(Math.max(hold.releaseAt.getTime(), now + 1) / RELEASE_BUCKET_MS);
    if (this.scheduledBuckets.has(bucket)) return;
    if (this.scheduledBuckets.size >= 10_000) {
      const current = Math.floor(now / RELEASE_BUCKET_MS);
      for (const b of this.scheduledBuckets) if (b < current) this.scheduledBuckets.delete(b);
    }
    this.scheduledBuckets.add(bucket);
    const queued = await this.jobs.wake(
      'escrow.release-due',
      { bucket },
      { jobId: jobId('escrow.release-due', bucket), delay: Math.max(0, bucket * RELEASE_BUCKET_MS - now) },
    );
    if (!queued) this.scheduledBuckets.delete(bucket);
  }

  /** Worker step of `escrow.release-due`: releases every hold due by now, in batches. Returns how many. */
  async releaseDue(batch = 500): Promise<number> {
    let released = 0;
    for (;;) {
      const due = await this.dueReleases(batch);
      for (const hold of due) if (await this.release(hold.id)) released++;
      if (due.length < batch) return released;
    }
  }

  /** Seconds an agent's earnings are held, by its tier now (resolutions §6). */
  holdSeconds(reputation: number): number {
    switch (reputationTier(reputation)) {
      case 'Excellent':
      case 'Trusted':
        return 0;
      case 'Standard':
        return this.config.escrowHoldStandardS;
      case 'At Risk':
        return this.config.escrowHoldAtRiskS;
      case 'Critical':
        return this.config.escrowHoldCriticalS;
    }
  }

  /**
   * Inside the caller's transaction: the client paid platform fee + agent fee; the platform
   * keeps the fee and a half-up 5% cut; the agent's earnings go to escrow (and straight to
   * available for instant tiers).
   */
  async recordCharge(
    manager: Queryable,
    c: ExecutionCharge,
  ): Promise<{ transaction: TransactionEntity; hold: EscrowHoldEntity; refund: RefundEntity | null }> {
    const { cut, earnings } = splitAgentFee(c.agentFee);
    const unused = c.refund ? c.refund.authorizedAgentFee - c.agentFee : 0n;
    if (unused < 0n) throw new Error(`agent fee ${c.agentFee} exceeds what was authorized`);
    const refundAmount = c.source ? 0n : unused;
    const refund = refundAmount > 0n ? { id: c.refund?.id ?? newId('rfd'), amount: refundAmount } : null;
    const transactionId = c.transactionId ?? newId('tx');
    const holdId = newId('esc');
    const gross = c.platformFee + c.agentFee;
    const now = this.clock.now();
    const hold = Object.assign(new EscrowHoldEntity(), {
      id: holdId,
      transactionId,
      agentId: c.agentId,
      amount: earnings,
      status: 'held',
      releaseAt: now,
      releasedAt: null,
    });
    const transaction = Object.assign(new TransactionEntity(), {
      id: transactionId,
      requestingAgent: c.requestingAgent,
      payerWallet: c.payerWallet.toLowerCase(),
      providingAgentId: c.agentId,
      capabilityId: c.capabilityId,
      grossAmount: gross,
      platformFee: c.platformFee,
      agentFee: c.agentFee,
      platformCut: cut,
      agentEarnings: earnings,
      status: 'completed',
      executionTimeMs: c.executionTimeMs,
      paymentId: c.paymentId,
      escrowId: holdId,
      disputeId: null,
      completedAt: now,
    });
    // One round trip (pipeline mode): the two rows, the refund row and the posting go out together
    // and run in this order; the posting locks the hot platform accounts only until commit.
    // The hold's length by tier (reputation's reputationTier: 60+ instant, 40+ Standard, 20+ At Risk, else Critical).
    const [held, opened] = await allWrites([
      queryRows<{ releaseAt: Date }>(
        manager,
        `WITH t AS (
           INSERT INTO transactions (id, requesting_agent, payer_wallet, providing_agent_id, capability_id, gross_amount, platform_fee, agent_fee,
                                     platform_cut, agent_earnings, status, execution_time_ms, payment_id, escrow_id, completed_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'completed', $11, $12, $13, $14))
         INSERT INTO escrow_holds (id, transaction_id, agent_id, amount, status, release_at)
         SELECT $13, $1, $4, $10, 'held', $14::timestamptz + make_interval(secs => CASE WHEN s >= 60 THEN 0 WHEN s >= 40 THEN $15 WHEN s >= 20 THEN $16 ELSE $17 END)
           FROM (SELECT coalesce($18::int, (SELECT reputation_score FROM agents WHERE id = $4), ${INITIAL_REPUTATION}) AS s) score
         RETURNING release_at AS "releaseAt"`,
        [
          transactionId,
          transaction.requestingAgent,
          transaction.payerWallet,
          c.agentId,
          c.capabilityId,
          gross.toString(),
          c.platformFee.toString(),
          c.agentFee.toString(),
          cut.toString(),
          earnings.toString(),
          c.executionTimeMs,
          c.paymentId,
          holdId,
          now,
          this.config.escrowHoldStandardS,
          this.config.escrowHoldAtRiskS,
          this.config.escrowHoldCriticalS,
          c.agentReputation ?? null,
        ],
      ),
      refund
        ? this.refunds.open(manager, {
            id: refund.id,
            wallet: c.payerWallet,
            amount: refund.amount,
            reason: 'variable_price_unused',
            executionId: c.refund!.executionId,
            transactionId,
          })
        : Promise.resolve(null),
      this.ledger.post(manager, {
        code: 'execution.settled',
        refId: transactionId,
        legs: [
          { account: c.source?.from ?? Accounts.worldChain(), amount: -(c.source ? gross : gross + unused) },
          { account: Accounts.platformRevenue(), amount: c.platformFee + cut },
          { account: Accounts.agentEscrow(c.agentId), amount: earnings },
          ...(refund ? [{ account: Accounts.clientRefundPayable(c.payerWallet), amount: refund.amount }] : []),
        ],
        metadata: { paymentId: c.paymentId, agentId: c.agentId, ...(refund ? { refundId: refund.id } : {}) },
      }),
      // A release in this transaction credits available (and owed): they are locked here, after the
      // posting's accounts and before the agent's row (the caller's reputation statement), which is
      // the order withdrawals and disputes take them in. Taking the row first deadlocked a charge
      // against a withdrawal holding available and waiting for the row.
      c.releaseInline !== false
        ? this.ledger.lockBalances(manager, [
            Accounts.agentAvailable(c.agentId).code,
            Accounts.agentOwed(c.agentId).code,
          ])
        : Promise.resolve(null),
    ]);
    hold.releaseAt = new Date(held[0].releaseAt);
    if (hold.releaseAt.getTime() <= now.getTime() && c.releaseInline !== false) {
      await this.releaseIn(manager, hold);
      Object.assign(hold, { status: 'released', releasedAt: now });
    }
    return { transaction, hold, refund: opened };
  }

  /**
   * Releases a held escrow whose time has come. Claiming the row first makes a duplicate job
   * (or the sweeper racing the delayed job) a no-op. Returns whether this call released it.
   */
  async release(holdId: string): Promise<boolean> {
    const released = await this.tx.run(async (manager) => {
      const [hold]: EscrowHoldEntity[] = await manager.query(
        `SELECT id, agent_id AS "agentId", transaction_id AS "transactionId", amount, status, release_at AS "releaseAt"
           FROM escrow_holds WHERE id = $1 AND status = 'held' AND release_at <= $2 FOR UPDATE SKIP LOCKED`,
        [holdId, this.clock.now()],
      );
      if (!hold) return null;
      // Escrow before available, as a charge released in its own transaction takes them (the
      // escrow account with the charge's posting, available with the release): by id the posting
      // could take available first and deadlock against that charge.
      await this.ledger.lockFirst(manager, Accounts.agentEscrow(hold.agentId).code);
      return this.releaseIn(manager, { ...hold, amount: BigInt(hold.amount) } as EscrowHoldEntity);
    });
    if (released === null) return false;
    for (const id of released.refundIds) await this.refunds.enqueue(id);
    return true;
  }

  /** Releases a claimed hold; answers the refunds its repayment of the agent's debts opened (the sweeper sends them if nobody wakes them). */
  private async releaseIn(manager: Queryable, hold: EscrowHoldEntity): Promise<{ refundIds: string[] }> {
    await manager.query(
      `UPDATE escrow_holds SET status = 'released', released_at = $2 WHERE id = $1 AND status = 'held'`,
      [hold.id, this.clock.now()],
    );
    if (hold.amount === 0n) return { refundIds: [] };
    // What the agent owes (a dispute's refund of earnings it had withdrawn) is repaid first.
    const { balances, refundIds } = await this.credit.credit(manager, {
      code: 'escrow.released',
      refId: hold.id,
      from: Accounts.agentEscrow(hold.agentId),
      agentId: hold.agentId,
      amount: hold.amount,
    });
    const available =
      balances.get(Accounts.agentAvailable(hold.agentId).code) ??
      (await this.ledger.balance(manager, Accounts.agentAvailable(hold.agentId).code));
    await this.outbox.record(manager, 'escrow.released', hold.agentId, {
      transactionId: hold.transactionId,
      amount: formatMicros(hold.amount),
      newAvailableBalance: formatMicros(available),
    });
    return { refundIds };
  }

  /** Held escrows due for release (for the sweeper). */
  async dueReleases(limit = 500): Promise<{ id: string; releaseAt: Date }[]> {
    return this.dataSource.query(
      `SELECT id, release_at AS "releaseAt" FROM escrow_holds WHERE status = 'held' AND release_at <= $1 ORDER BY release_at LIMIT $2`,
      [this.clock.now(), limit],
    );
  }
}
