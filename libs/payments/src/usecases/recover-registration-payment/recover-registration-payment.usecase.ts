import { Injectable, Logger } from '@nestjs/common';
import { Clock, newId } from '@app/common';
import { AppConfig } from '@app/config';
import { TransactionRunner } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { PaymentEntity } from '../../entities/payment.entity';
import { AUTHORIZATION_EXPIRY_MARGIN_S, settleRetryDelayMs } from '../settle-payment/settle-payment.usecase';
import { toSettleRequest } from '../../payment-rows';
import { RefundsService } from '../../refunds.service';
import { DuePayment, PaymentsRepository } from '../../payments.repository';
import { RegistrationPaymentsRepository } from '../../registration-payments.repository';
import { SettlementAdapter } from '@app/onchain';

export type RegistrationRecovery = 'refunded' | 'released' | 'waiting' | 'skipped';

/**
 * A registration fee whose money may have moved while its agent was never created: the request's
 * process died between the settlement and the transaction that creates the agent, or the
 * settlement was recorded failed and its transaction landed later. The worker (sweeper) asks the
 * chain; money that moved is recorded and refunded to the payer in one Postgres transaction
 * (`registration.refunded` plus a refund row the payout worker sends). An authorization still
 * unused is checked again on the retry schedule until its validBefore passes, then released.
 * A registration is never completed behind the client's back.
 */
@Injectable()
export class RecoverRegistrationPayment {
  private readonly logger = new Logger(RecoverRegistrationPayment.name);

  constructor(
    private readonly adapter: SettlementAdapter,
    private readonly ledger: LedgerService,
    private readonly refunds: RefundsService,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly payments: PaymentsRepository,
    private readonly rows: RegistrationPaymentsRepository,
  ) {}

  /**
   * Registration payments to look at: undecided past their lease or retry time, settled with no agent past the
   * bind grace, or reserved by a request that never settled them (Postgres lost between the two) past that grace.
   */
  due(limit = 100): Promise<DuePayment[]> {
    const now = this.clock.now();
    return this.payments.due(now, new Date(now.getTime() - this.config.registrationBindGraceMs), limit, 'registration');
  }

  async execute(paymentId: string): Promise<RegistrationRecovery> {
    const p = await this.payments.get(paymentId);
    const now = this.clock.now();
    if (!p || p.purpose !== 'registration' || p.refId !== null) return 'skipped';
    // Settled with no agent: the lease's heartbeat stops at the settlement, so the request's process gets the
    // longer REGISTRATION_BIND_GRACE_MS to create it (a Postgres stall must not refund a live registration).
    if (p.status === 'settled')
      return p.settledAt && p.settledAt.getTime() <= now.getTime() - this.config.registrationBindGraceMs
        ? this.refund(p, null)
        : 'skipped';
    // A reservation whose request died (or lost Postgres) before settling it: looked at as an undecided one, from
    // its creation. Its authorization may still be relayed by anyone, so it is watched until it expires.
    const dueAtMs =
      p.status === 'reserved'
        ? p.createdAt.getTime() + this.config.registrationBindGraceMs
        : (p.status === 'settlement_failed' || p.status === 'settling') && p.nextAttemptAt?.getTime();
    if (!dueAtMs || dueAtMs > now.getTime()) return 'skipped';
    const retry = new Date(now.getTime() + settleRetryDelayMs(p.settleAttempts + 1));
    // Without a chain to read (a facilitator alone), a send that may have moved money is never released on a guess.
    if (!this.adapter.readsChain && p.status === 'settling') {
      this.logger.warn(
        { paymentId: p.id },
        'registration fee undecided and no chain to read (EVM_RPC_URL): left settling',
      );
      await this.payments.markUndecided(p.id, retry, 'undecided; no chain to read it (EVM_RPC_URL unset)');
      return 'waiting';
    }
    const req = toSettleRequest(p);
    // Not readable now (the node, or a log out of reach): looked at again later, on the schedule.
    const moved = await this.adapter.settlementOf(req).catch(() => undefined);
    if (moved === undefined) return this.wait(p, retry);
    if (moved) return this.refund(p, moved);
    // Used, and by no transfer of these terms: the payer spent or cancelled the nonce. Nothing came; nothing can.
    const spent = this.adapter.readsChain && (await this.adapter.authorizationUsed(req).catch(() => false));
    if (spent || BigInt(Math.floor(now.getTime() / 1000)) >= p.validBefore + AUTHORIZATION_EXPIRY_MARGIN_S) {
      // The authorization expired unused, with a margin for a chain clock behind ours: it can never move money.
      await this.rows.releaseFrom(p.id, p.status);
      return 'released';
    }
    return this.wait(p, retry);
  }

  private async wait(p: PaymentEntity, at: Date): Promise<RegistrationRecovery> {
    await this.rows.retryAt(p.id, p.status, at);
    return 'waiting';
  }

  /** Records the money that came in (settled with `txHash` when it was not yet) and owes it back to the payer, once. */
  private async refund(p: PaymentEntity, txHash: string | null): Promise<RegistrationRecovery> {
    const refundId = newId('rfd');
    const done = await this.tx.run(async (m) => {
      if (!(await this.rows.claimForRefund(m, p.id, refundId, txHash))) return false;
      await this.ledger.post(m, {
        code: 'registration.refunded',
        refId: p.id,
        legs: [
          { account: Accounts.worldChain(), amount: -p.value },
          { account: Accounts.clientRefundPayable(p.payer), amount: p.value },
        ],
        metadata: { paymentId: p.id, refundId },
      });
      await this.refunds.open(m, {
        id: refundId,
        wallet: p.payer,
        amount: p.value,
        reason: 'registration_unused',
        executionId: null,
        transactionId: null,
      });
      return true;
    });
    if (!done) return 'skipped';
    this.logger.warn({ paymentId: p.id, refundId }, 'registration fee moved without an agent: refunded');
    await this.refunds.enqueue(refundId);
    return 'refunded';
  }
}
