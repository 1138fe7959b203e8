import { Injectable, Logger } from '@nestjs/common';
import { Clock, newUuid } from '@app/common';
import { AppConfig } from '@app/config';
import { HoldLease, LeaseHeartbeat } from '@app/database';
import { PayoutFence, PayoutTransfer } from '@app/onchain';
import { PayoutKind, PayoutsRepository } from './repositories/payouts.repository';

/** Attempts a payout gets before, with no transfer ever signed for it, it fails (money back). */
export const PAYOUT_MAX_ATTEMPTS = 5;

/** `claimToken`: the owner completes or fails the row only while it still holds this claim. */
export type PayoutOutcome =
  | { kind: 'sent'; txHash: string; claimToken: string }
  | { kind: 'failed'; error: string; claimToken: string }
  | { kind: 'skipped' };

/**
 * Sends money out of the platform wallet for one withdrawal or refund. Claims it (pending, or
 * processing with an expired claim, PAYOUT_CLAIM_MS, renewed by LeaseHeartbeat while this process
 * sends) under a fresh claim token, then hands onchain's PayoutTransfer the values to send and a
 * fence (PayoutsRepository.bind): a new transfer is persisted only while the token is still the
 * row's, so a sender that stalled past its claim can never sign a second transfer. `failed` only
 * when nothing can land: the transfer reverted, or none was ever signed by the last attempt (read
 * again after the attempt, so a transfer signed during it counts). Anything else throws so the
 * queue retries (the sweeper picks the row up if the job is gone).
 */
@Injectable()
export class PayoutSender {
  private readonly logger = new Logger(PayoutSender.name);

  constructor(
    private readonly repo: PayoutsRepository,
    private readonly transfer: PayoutTransfer,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly heartbeat: LeaseHeartbeat,
  ) {}

  /** Claims and sends a payout; nothing is claimed while the last invariant check failed (G15: payouts paused). */
  send(kind: PayoutKind, id: string): Promise<PayoutOutcome> {
    // The claim is renewed while this process sends (a receipt wait outlasts it); a dead process's lapses in one claim.
    return this.heartbeat.holding((hold) => this.claimAndSend(kind, id, hold));
  }

  private async claimAndSend(kind: PayoutKind, id: string, hold: HoldLease): Promise<PayoutOutcome> {
    const now = this.clock.now();
    const claimToken = newUuid();
    const claim = new Date(now.getTime() + this.config.payoutClaimMs);
    const row = await this.repo.claim(kind, id, claimToken, claim, now);
    if (!row) return { kind: 'skipped' };
    hold(claim, (from, to) => this.repo.renewClaim(kind, id, claimToken, from, to), this.config.payoutClaimMs);
    const fence: PayoutFence = (sql, tx) => this.repo.bind(sql, kind, id, claimToken, tx);
    try {
      const outcome = await this.transfer.send({
        payoutId: id,
        to: row.to,
        amount: BigInt(row.amount),
        chainTxId: row.chainTxId,
        legacySignedTx: row.signedTx,
        fence,
      });
      if (outcome.kind === 'sent') return { kind: 'sent', txHash: outcome.txHash, claimToken };
      if (outcome.kind === 'reverted')
        return { kind: 'failed', error: `transfer ${outcome.txHash} reverted`, claimToken };
      if (outcome.kind === 'fenced') return { kind: 'skipped' };
      throw new Error('the transfer is signed and not mined yet; it will be checked again');
    } catch (err) {
      const error = (err as Error).message?.slice(0, 500) ?? 'transfer failed';
      const current = await this.repo.signed(kind, id);
      // Failed (money back) only when no transfer was ever signed for it, by this version or an earlier one.
      if (row.attempts >= PAYOUT_MAX_ATTEMPTS && current && !current.chainTxId && !current.signedTx)
        return { kind: 'failed', error, claimToken };
      await this.repo.releaseClaim(kind, id, claimToken, error);
      this.logger.warn(
        { table: this.repo.table(kind), id, attempts: row.attempts, err: error },
        'payout not finished; will retry',
      );
      throw err;
    }
  }

  /** Payouts that need the worker (for the sweeper): pending, or claimed by a worker that died. */
  async due(kind: PayoutKind, limit = 200): Promise<string[]> {
    return (await this.dueSince(kind, limit)).map((r) => r.id);
  }

  /** The same, with when each became due: a pending row when it was written (its job was enqueued then), a claim when it lapsed. */
  dueSince(kind: PayoutKind, limit = 200): Promise<{ id: string; dueAt: Date }[]> {
    return this.repo.dueSince(kind, this.clock.now(), limit);
  }
}
