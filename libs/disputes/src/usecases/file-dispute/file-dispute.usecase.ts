import { Injectable } from '@nestjs/common';
import { AppException, Clock, newId, NotFoundException } from '@app/common';
import { AppConfig } from '@app/config';
import { WalletAuthService } from '@app/auth';
import { TransactionRunner } from '@app/database';
import { CollectExecutionEvidence, EvidenceKeys } from '@app/execution';
import { OutboxService } from '@app/outbox';
import { FreezeDisputedEarnings, GetDisputedTransaction } from '@app/payments';
import { ReputationRecorder } from '@app/reputation';
import { DisputesRepository } from '../../disputes.repository';
import { DisputeTimeouts } from '../../dispute-timeouts';
import { ConfirmDispute, FiledDispute } from '../confirm-dispute/confirm-dispute.usecase';
import { assertFilingWindowOpen } from './filing-window';
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
 * lock queues concurrent filings; the losers find it disputed, or its dispute row), the earnings frozen,
 * the dispute row, reputation -5 and `dispute.filed`. The response deadline is a delayed job plus the sweeper.
 * A filing proved only by a payment header anyone can rebuild (evm settlement) is unverified: the transaction
 * left as it is (completed, no dispute: the claim is the dispute row alone), nothing frozen, `dispute.filed`
 * sent as usual, but no reputation change, no evidence key and no deadline job (an admin decides it) until the
 * payer's signature confirms it (ConfirmDispute, which marks the transaction disputed and freezes then).
 */
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
    private readonly confirm: ConfirmDispute,
    private readonly tx: TransactionRunner,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async execute(cmd: FileDisputeCommand): Promise<FiledDispute> {
    this.proofs.assertPresent(cmd.proof);
    const charged = await this.disputedTransaction.execute(cmd.transactionId);
    if (!charged) throw new NotFoundException('TRANSACTION_NOT_FOUND', 'Transaction', cmd.transactionId);
    const proof = this.proofs.verify(cmd.proof, charged);
    // An unverified filing leaves the transaction undisputed: its dispute is found in the disputes table.
    const disputeId = charged.disputeId ?? (await this.repo.idOfTransaction(charged.id));
    if (disputeId !== null) {
      // The payer's signature confirms an unverified filing (the contract's 409 for anything else).
      if (proof.signed) return this.confirm.execute({ ...charged, disputeId }, { ...cmd, signed: proof.signed });
      throw new AppException('DISPUTE_EXISTS', 'This transaction is already disputed', { disputeId });
    }
    if (charged.status !== 'completed')
      throw new AppException(
        'INVALID_STATE',
        `Only a completed transaction can be disputed (status ${charged.status})`,
      );
    const now = this.clock.now();
    assertFilingWindowOpen(charged.completedAt, now, this.config.disputeFilingWindowS);
    const evidence = await this.evidence.execute({
      transactionId: charged.id,
      paymentId: charged.paymentId,
      agentId: charged.agentId,
      chargedAt: charged.completedAt,
    });
    const id = newId('dsp');
    const respondBy = new Date(now.getTime() + this.config.disputeResponseWindowS * 1000);
    const dispute = await this.tx.run(async (manager) => {
      if (proof.signed) await this.walletAuth.consume(manager, proof.signed);
      // An unverified filing freezes nothing (anyone could make it): the payer's confirmation does.
      const frozen = await this.freezeEarnings.execute(manager, charged.id, id, { freeze: proof.verified });
      // A filing that raced ahead (the transaction's row lock queued this one) left only its dispute row.
      const raced = await this.repo.idOfTransaction(charged.id, manager);
      if (raced) throw new AppException('DISPUTE_EXISTS', 'This transaction is already disputed', { disputeId: raced });
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
        payerProof: proof.kind,
        verified: proof.verified,
      };
      await this.repo.insert(manager, row);
      // The payer's penalties of one agent count once an interval, unfunded payers' within a cap in all, a
      // price-0 run's not at all (a griefer cannot suspend it by filing). A disputed charge never matures
      // into the payer's settled spend until its dispute ends (CountMaturedSpend).
      // An unverified filing moves nothing (counted when confirmed, or when an admin decides it).
      if (proof.verified)
        await this.reputation.record(manager, charged.agentId, 'dispute.filed', id, {
          payer: charged.payerWallet,
          stake: charged.agentFee,
        });
      await this.outbox.record(manager, 'dispute.filed', charged.agentId, {
        disputeId: id,
        transactionId: charged.id,
        reason: cmd.reason,
        respondBy: respondBy.toISOString(),
        verified: proof.verified,
      });
      return (await this.repo.findById(id, manager))!;
    });
    if (!proof.verified) return Object.assign(dispute, { evidenceKey: null });
    await this.timeouts.schedule(dispute);
    // The payer proved itself: it gets the key of the evidence hashes (public evidence shows only keyed hashes).
    return Object.assign(dispute, { evidenceKey: this.evidenceKeys.keyFor(charged.id) });
  }
}
