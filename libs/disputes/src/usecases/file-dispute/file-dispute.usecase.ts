import { Injectable } from '@nestjs/common';
import { AppException, Clock, newId, NotFoundException } from '@app/common';
import { AppConfig } from '@app/config';
import { WalletAuthService } from '@app/auth';
import { TransactionRunner } from '@app/database';
import { CollectExecutionEvidence, EvidenceKeys } from '@app/execution';
import { OutboxService } from '@app/outbox';
import { FreezeDisputedEarnings, GetDisputedTransaction } from '@app/payments';
import { ReputationRecorder } from '@app/reputation';
import { DisputeEntity } from '../../entities/dispute.entity';
import { DisputesRepository } from '../../disputes.repository';
import { DisputeTimeouts } from '../../dispute-timeouts';
import { PayerProof, PayerProofCheck } from './payer-proof';

export interface FileDisputeCommand {
  transactionId: string;
  reason: string;
  evidence: string | null;
  proof: PayerProof;
}

/**
 * `POST /disputes`: the payer of a completed, charged transaction disputes it, once, within the
 * filing window. One transaction: the signature spent, the transaction marked disputed (its row
 * lock queues concurrent filings; the losers find it disputed), the earnings frozen, the dispute
 * row, reputation -5 and `dispute.filed`. The response deadline is a delayed job plus the sweeper.
 */
/** The filed dispute, with the key of its evidence hashes for the payer who filed it. */
export type FiledDispute = DisputeEntity & { evidenceKey: string };

@Injectable()
export class FileDispute {
  constructor(
    private readonly repo: DisputesRepository,
    private readonly disputedTransaction: GetDisputedTransaction,
    private readonly freezeEarnings: FreezeDisputedEarnings,
    private readonly proofs: PayerProofCheck,
    private readonly walletAuth: WalletAuthService,
    private readonly evidence: CollectExecutionEvidence,
    private readonly evidenceKeys: EvidenceKeys,
    private readonly reputation: ReputationRecorder,
    private readonly outbox: OutboxService,
    private readonly timeouts: DisputeTimeouts,
    private readonly tx: TransactionRunner,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async execute(cmd: FileDisputeCommand): Promise<FiledDispute> {
    this.proofs.assertPresent(cmd.proof);
    const charged = await this.disputedTransaction.execute(cmd.transactionId);
    if (!charged) throw new NotFoundException('TRANSACTION_NOT_FOUND', 'Transaction', cmd.transactionId);
    const signed = this.proofs.verify(cmd.proof, charged);
    if (charged.disputeId !== null)
      throw new AppException('DISPUTE_EXISTS', 'This transaction is already disputed', {
        disputeId: charged.disputeId,
      });
    if (charged.status !== 'completed')
      throw new AppException(
        'INVALID_STATE',
        `Only a completed transaction can be disputed (status ${charged.status})`,
      );
    const now = this.clock.now();
    const closesAt = new Date(charged.completedAt.getTime() + this.config.disputeFilingWindowS * 1000);
    if (now > closesAt) {
      throw new AppException(
        'DISPUTE_WINDOW_CLOSED',
        `A transaction can be disputed within ${this.config.disputeFilingWindowS} seconds of its completion`,
        {
          closedAt: closesAt.toISOString(),
        },
      );
    }
    const evidence = await this.evidence.execute({
      transactionId: charged.id,
      paymentId: charged.paymentId,
      agentId: charged.agentId,
      chargedAt: charged.completedAt,
    });
    const id = newId('dsp');
    const respondBy = new Date(now.getTime() + this.config.disputeResponseWindowS * 1000);
    const dispute = await this.tx.run(async (manager) => {
      if (signed) await this.walletAuth.consume(manager, signed);
      const frozen = await this.freezeEarnings.execute(manager, charged.id, id);
      const row = {
        id,
        transactionId: charged.id,
        clientWallet: charged.payerWallet,
        agentId: charged.agentId,
        reason: cmd.reason,
        evidence: cmd.evidence,
        frozenAmount: frozen.frozen,
        advancedAmount: 0n,
        frozenFrom: frozen.from,
        platformEvidence: evidence as unknown as Record<string, unknown>,
        createdAt: now,
        respondBy,
      };
      await this.repo.insert(manager, row);
      // The payer's penalties of one agent count once an interval, unfunded payers' within a cap in all, a
      // price-0 run's not at all (a griefer cannot suspend it by filing); the fee leaves the payer's settled spend.
      await this.reputation.record(manager, charged.agentId, 'dispute.filed', id, {
        payer: charged.payerWallet,
        stake: charged.agentFee,
        spend: { wallet: charged.payerWallet, amount: -charged.agentFee },
      });
      await this.outbox.record(manager, 'dispute.filed', charged.agentId, {
        disputeId: id,
        transactionId: charged.id,
        reason: cmd.reason,
        respondBy: respondBy.toISOString(),
      });
      return (await this.repo.findById(id, manager))!;
    });
    await this.timeouts.schedule(dispute);
    // The payer proved itself: it gets the key of the evidence hashes (public evidence shows only keyed hashes).
    return Object.assign(dispute, { evidenceKey: this.evidenceKeys.keyFor(charged.id) });
  }
}
