import { inSpan } from '@app/tracing';
import { Metrics } from '@app/metrics';
import { Injectable, Logger } from '@nestjs/common';
import { Clock, FaultInjector, formatMicros, newId } from '@app/common';
import { AppConfig } from '@app/config';
import {
  allWrites,
  HoldLease,
  LeaseHeartbeat,
  PG_NOT_CLAIMED,
  pgErrorCode,
  Queryable,
  settledByName,
  TransactionRunner,
} from '@app/database';
import { OutboxService } from '@app/outbox';
import { escrowHoldSeconds, ReputationRecorder } from '@app/reputation';
import { Fees, Funding } from '@app/payments';
import { DeliveryService } from '@app/webhooks';
import { ExecutionEntity } from '../../../entities/execution.entity';
import { ExecutionOutcome } from '../../../execution.types';
import { ExecutionsRepository } from '../../../executions.repository';
import { ExecutionLeasesRepository } from '../../../execution-leases.repository';
import { ExecutionReceipt } from './execution-receipt';
import { ChargeRequest } from './charge-request';
import { completionFields, KnownSettlement, lostAtCommit, PENDING, settlementKnown, unconfirmed } from './unconfirmed';
import { unchargedPayload } from '../../../uncharged-payload';

export type { ChargeRequest };

type Charged = Awaited<ReturnType<Funding['recordCharge']>> & { callback: string | null };

/** The charge's own claim on the execution was lost to another run: its writes rolled back. */
class NotClaimed extends Error {}

/**
 * The charger: settles a successful run and records its charge, exactly once. A settlement inside
 * Postgres (local mode, next: a chain budget) is written in the charge's own transaction. One that
 * moves money outside (evm, facilitator) is preceded by a durable record (the execution
 * `completed` / `settlement_pending` with a lease, then the payment `settling`), so a process
 * that dies at any point leaves work the sweeper finishes; a charge that fails after the money
 * moved is left to the sweeper too (the payment is settled but not yet linked: it is found).
 * The charge transaction claims the execution (`claimed()`), so two finishers never both charge.
 */
@Injectable()
export class ChargeExecution {
  private readonly logger = new Logger(ChargeExecution.name);

  constructor(
    private readonly repo: ExecutionsRepository,
    private readonly reputation: ReputationRecorder,
    private readonly clock: Clock,
    private readonly outbox: OutboxService,
    private readonly deliveries: DeliveryService,
    private readonly tx: TransactionRunner,
    private readonly faults: FaultInjector,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly receipts: ExecutionReceipt,
    private readonly heartbeat: LeaseHeartbeat,
    private readonly leases: ExecutionLeasesRepository,
  ) {}

  execute(req: ChargeRequest): Promise<ExecutionOutcome> {
    return inSpan(
      'agora.execute.charge',
      { 'agora.request_id': req.execution.id, 'agora.agent_id': req.execution.agentId },
      async (set) => {
        // The execution's lease, taken below, is renewed while this process settles and charges it.
        const outcome = await this.heartbeat.holding((hold) => this.chargeTraced(req, hold));
        set({
          'agora.status': outcome.execution.status,
          'agora.settlement_status': outcome.execution.settlementStatus ?? 'none',
          'agora.cost': String(outcome.execution.platformFee + outcome.execution.agentFee),
        });
        return outcome;
      },
    );
  }

  private async chargeTraced(req: ChargeRequest, hold: HoldLease): Promise<ExecutionOutcome> {
    const { execution, funding } = req;
    if (req.state !== 'completed') {
      Object.assign(execution, {
        status: 'completed',
        ...completionFields(req.completion),
        settlementStatus: 'settlement_pending',
      });
      if (!funding.settlesOutside) return this.charge(req, req.state === 'fresh' ? 'insert' : 'complete');
      const lease = new Date(this.clock.nowMs() + this.config.settlementLeaseMs);
      if (req.state === 'fresh') {
        Object.assign(execution, { lockedUntil: lease });
        await this.faults.reach('charge.before-reserve');
        try {
          await this.tx.pipelined((sql) =>
            allWrites([
              // First: a key another request took answers as that (not as a used payment).
              req.keyClaim ? req.keyClaim(sql) : Promise.resolve(),
              funding.reserve(sql, execution.id),
              this.repo.insert(sql, execution),
            ]),
          );
        } catch (err) {
          // Lost at COMMIT: the payment may be written (the sweeper settles it), so never "pay again".
          if (lostAtCommit(err)) return unconfirmed(execution, PENDING);
          throw err;
        }
      } else if (!(await this.repo.recordCompletion(execution.id, req.completion, lease))) {
        return this.stored(execution.id);
      }
      hold(lease, (from, to) => this.leases.renewSettlementLease(execution.id, from, to));
    }
    // Settled, or expired unused (final): nothing left to do (a duplicate job, a late sweep).
    if (
      execution.status !== 'completed' ||
      execution.settlementStatus === 'settled' ||
      execution.settlementStatus === 'settlement_expired'
    ) {
      return { execution, settlement: null };
    }
    if (funding.settlesOutside) {
      if (req.state !== 'fresh') return this.settleAndCharge(req, { ...PENDING });
      // A sync request's payment is written: whatever fails now (Postgres first), the answer says what
      // is known and where to read the rest, never a 503 or 402 that would have its client pay again.
      const known: KnownSettlement = { ...PENDING };
      try {
        await this.faults.reach('charge.after-reserve');
        return await this.settleAndCharge(req, known);
      } catch (err) {
        const facts = { executionId: execution.id, err: (err as Error).message, settlement: known.settlementStatus };
        this.logger.error(
          facts,
          'a paid run could not be finished or read back: answered unconfirmed, for the sweeper',
        );
        return unconfirmed(execution, known);
      }
    }
    return this.charge(req, 'settle');
  }

  /** Settles outside Postgres, then charges; `known` follows what the settlement said (for an unconfirmed answer). */
  private async settleAndCharge(req: ChargeRequest, known: KnownSettlement): Promise<ExecutionOutcome> {
    const { execution, funding } = req;
    const failure = await funding.settleOutside();
    Object.assign(known, settlementKnown(failure, funding.receipt().txHash));
    if (failure) {
      // Sent and undecided: still pending (the payment's own sweep records it). An authorization
      // that expired unused is final: not charged, output withheld, no more retries, and its
      // payloads shrink to what an uncharged run keeps.
      const expired = !failure.pending && failure.final;
      await this.repo.markSettlementStatus(
        execution.id,
        failure.pending ? 'settlement_pending' : expired ? 'settlement_expired' : 'settlement_failed',
        expired ? unchargedPayload(execution.input, execution.output, this.config.unchargedInputKeepBytes) : undefined,
      );
      const stored = await this.stored(execution.id);
      // Settled meanwhile (the sweeper got there first): answered as settled, with the final receipt.
      if (!failure.pending || stored.execution.settlementStatus !== 'settlement_pending') return stored;
      // The answer's receipt says so (the transaction sent, nothing delivered or charged yet), kept
      // for a retry's answer; the charge replaces it with the final one.
      const signed = await this.receipts.issue(stored.execution, funding, true);
      if (signed) await this.repo.keepPendingReceipt(execution.id, signed);
      return { ...stored, settlement: { txHash: failure.txHash ?? null, receipt: null, signed, refund: null } };
    }
    try {
      await this.faults.reach('charge.after-settle');
      return await this.charge(req, 'settle');
    } catch (err) {
      // The money moved and is recorded (payment settled, not yet linked): the sweeper charges it.
      this.logger.error(
        { executionId: execution.id, err: (err as Error).message },
        'charge after settlement failed; left to the sweeper',
      );
      return this.stored(execution.id);
    }
  }

  /**
   * One transaction, one round trip of writes: claim the execution (insert it settled, complete
   * and settle it, or mark it settled), the settlement or its link, the event, the callback, the
   * charge and its escrow hold, the agent's counter. A lost claim rolls all back.
   */
  private async charge(req: ChargeRequest, mode: 'insert' | 'complete' | 'settle'): Promise<ExecutionOutcome> {
    const { execution, funding } = req;
    const id = execution.id;
    // The cached score only picks the transaction's shape; the hold's tier is the score at the charge (read by the hold's statement).
    const inline = req.reputation === undefined || escrowHoldSeconds(req.reputation, this.config) === 0;
    const transactionId = newId('tx');
    // A chain's unused reservation goes back to its budget: a refund only for an x402 payment.
    const refundId = execution.authorizedAgentFee > execution.agentFee && funding.refundsUnused ? newId('rfd') : null;
    // Signed before the transaction (its facts are final here) and written with the charge.
    const receipt = await this.receipts.issue(execution, funding);
    const facts = {
      transactionId,
      cost: execution.platformFee + execution.agentFee,
      executionTimeMs: execution.executionTimeMs ?? 0,
      completedAt: execution.completedAt ?? this.clock.now(),
    };
    // Named where issued: an object literal's statements go out in the order written.
    const writesOf = (sql: Queryable) => ({
      claim:
        mode === 'insert'
          ? allWrites([
              req.state === 'fresh' && req.keyClaim ? req.keyClaim(sql) : Promise.resolve(),
              funding.settleWrites(sql, id, true, facts),
              this.repo.insert(sql, {
                ...execution,
                settlementStatus: 'settled',
                transactionId,
                refundId,
                lockedUntil: null,
                receipt,
              } as ExecutionEntity),
            ])
          : mode === 'complete' && req.state !== 'completed'
            ? this.repo.completeSettled(sql, id, req.completion, transactionId, refundId, receipt)
            : this.repo.markSettled(sql, id, transactionId, refundId, receipt),
      settled: mode === 'insert' ? Promise.resolve() : funding.settleWrites(sql, id, false, facts),
      event: this.outbox.record(
        sql,
        'execution.completed',
        execution.agentId,
        {
          requestId: id,
          agentId: execution.agentId,
          capabilityId: execution.capabilityId,
          executionTime: execution.executionTimeMs ?? 0,
          earnings: formatMicros(Fees.split(execution.agentFee).earnings),
        },
        { cost: formatMicros(facts.cost) },
      ),
      // The callback references the stored output (built when sent) rather than copying it.
      callback: execution.callbackUrl
        ? this.deliveries.scheduleCallback(sql, { executionId: id, url: execution.callbackUrl, body: null })
        : Promise.resolve(null),
      charge: funding.recordCharge(sql, {
        transactionId,
        agentId: execution.agentId,
        releaseInline: inline,
        capabilityId: execution.capabilityId,
        agentFee: execution.agentFee,
        platformFee: execution.platformFee,
        executionTimeMs: execution.executionTimeMs ?? 0,
        refund: { id: refundId ?? undefined, executionId: id, authorizedAgentFee: execution.authorizedAgentFee },
      }),
      // Last: the agent's row stays locked only until commit. +1 and the execution counted, within the
      // payer's daily cap; nothing when the payer is the agent's own wallet or the run was price-0, nor in
      // the weighted model from a payer with no matured spend elsewhere (resolutions §7). The fee joins the payer's
      // spend once the charge is past its dispute filing window undisputed (CountMaturedSpend), not here.
      counter: this.reputation.record(sql, execution.agentId, 'execution.completed', transactionId, {
        payer: funding.payer,
        stake: execution.agentFee,
        calledBy: funding.callingAgent,
      }),
    });
    let issued!: ReturnType<typeof writesOf>;
    const issue = (sql: Queryable) => Object.values((issued = writesOf(sql)));
    const interpret = (outcomes: PromiseSettledResult<unknown>[]): Charged => {
      const { claim, ...writes } = settledByName(issued, outcomes);
      if (claim.status === 'rejected')
        throw pgErrorCode(claim.reason) === PG_NOT_CLAIMED ? new NotClaimed() : claim.reason;
      const failed = Object.values(writes).find((w): w is PromiseRejectedResult => w.status === 'rejected');
      if (failed) throw failed.reason;
      const { hold, refund } = (writes.charge as PromiseFulfilledResult<Omit<Charged, 'callback'>>).value;
      return { hold, refund, callback: (writes.callback as PromiseFulfilledResult<string | null>).value };
    };
    let charged: Charged;
    try {
      // A held charge is one round trip, COMMIT included: the hot ledger accounts and the agent's
      // row stay locked only while Postgres runs it. An instant-tier hold is released in the same
      // transaction once the posting has answered, so that one waits for the results first.
      charged = inline
        ? await this.tx.pipelined(async (sql) => interpret(await Promise.allSettled(issue(sql))))
        : interpret(await this.tx.oneTrip(issue));
    } catch (err) {
      if (err instanceof NotClaimed) return this.stored(id);
      // A sync run settled inside Postgres, its one transaction lost at COMMIT: perhaps charged.
      if (mode === 'insert' && lostAtCommit(err)) return unconfirmed(execution, PENDING);
      throw err;
    }
    this.metrics.executions.inc({ outcome: 'completed', pricing: execution.pricingModel });
    // After commit. A hold due now (the score crossed into an instant tier since the target was
    // cached) is released before the answer; otherwise the job is due hours later (the sweeper covers a lost one): not awaited.
    await funding.afterEnd(charged);
    if (charged.callback) await this.deliveries.wake(charged.callback, 0);
    Object.assign(execution, {
      settlementStatus: 'settled',
      transactionId,
      refundId: charged.refund?.id ?? null,
      lockedUntil: null,
      receipt,
    });
    return { execution, settlement: { ...funding.receipt(), signed: receipt, refund: charged.refund } };
  }

  private async stored(id: string): Promise<ExecutionOutcome> {
    return { execution: (await this.repo.findById(id))!, settlement: null };
  }
}
