import { Injectable } from '@nestjs/common';
import { AppException, Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { WalletAuthContext, WalletAuthService } from '@app/auth';
import { TransactionRunner } from '@app/database';
import { EvidenceKeys } from '@app/execution';
import { OutboxService } from '@app/outbox';
import { DisputedTransaction, FreezeDisputedEarnings } from '@app/payments';
import { ReputationRecorder } from '@app/reputation';
import { DisputeEntity } from '../../entities/dispute.entity';
import { DisputesRepository } from '../../disputes.repository';
import { DisputeTimeouts } from '../../dispute-timeouts';
import { assertFilingWindowOpen } from '../file-dispute/filing-window';

/** The filed dispute, with the key of its evidence hashes for a payer who proved itself (null: an unverified filing). */
export type FiledDispute = DisputeEntity & { evidenceKey: string | null };

/**
 * The payer files again, with its signature, a transaction whose dispute was filed unverified (proved only by a
 * payment header anyone rebuilds from chain data): the dispute becomes the payer's, verified, instead of
 * DISPUTE_EXISTS. One transaction: the signature spent, the dispute confirmed (the payer's reason and evidence; a
 * pending one a full response window from now), the transaction marked disputed, the earnings frozen (an unverified filing froze nothing), the
 * filing's reputation change and `dispute.filed` again (with the new respondBy). From then the normal rules apply:
 * the deadline's client_wins, the evidence key for the payer.
 */
@Injectable()
export class ConfirmDispute {
  constructor(
    private readonly repo: DisputesRepository,
    private readonly walletAuth: WalletAuthService,
    private readonly freezeEarnings: FreezeDisputedEarnings,
    private readonly evidenceKeys: EvidenceKeys,
    private readonly reputation: ReputationRecorder,
    private readonly outbox: OutboxService,
    private readonly timeouts: DisputeTimeouts,
    private readonly tx: TransactionRunner,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async execute(
    charged: DisputedTransaction & { disputeId: string },
    filing: { reason: string; evidence: string | null; signed: WalletAuthContext },
  ): Promise<FiledDispute> {
    const now = this.clock.now();
    const respondBy = new Date(now.getTime() + this.config.disputeResponseWindowS * 1000);
    const dispute = await this.tx.run(async (manager) => {
      const d = await this.repo.confirm(manager, charged.disputeId, { ...filing, respondBy });
      if (!d)
        throw new AppException('DISPUTE_EXISTS', 'This transaction is already disputed', {
          disputeId: charged.disputeId,
        });
      // Only an unverified filing is confirmed, inside the filing window (rolled back past it); a verified one
      // is the contract's 409 at any time (a replay).
      assertFilingWindowOpen(charged.completedAt, now, this.config.disputeFilingWindowS);
      await this.walletAuth.consume(manager, filing.signed);
      // Now the transaction is marked disputed (an unverified filing left it completed) and the earnings freeze,
      // as a verified filing's would have (escrow if still held, else available). Inside the filing window, so
      // before the payer's spend could count the charge (window + grace).
      const frozen = await this.freezeEarnings.execute(manager, charged.id, d.id);
      await this.repo.recordFreeze(manager, d.id, frozen);
      Object.assign(d, { frozenAmount: frozen.frozen, frozenFrom: frozen.from });
      await this.reputation.record(manager, charged.agentId, 'dispute.filed', d.id, {
        payer: charged.payerWallet,
        stake: charged.agentFee,
      });
      await this.outbox.record(manager, 'dispute.filed', charged.agentId, {
        disputeId: d.id,
        transactionId: charged.id,
        reason: d.reason,
        respondBy: d.respondBy.toISOString(),
        verified: true,
      });
      return d;
    });
    if (dispute.status === 'pending') await this.timeouts.schedule(dispute, 'confirmed');
    return Object.assign(dispute, { evidenceKey: this.evidenceKeys.keyFor(charged.id) });
  }
}
