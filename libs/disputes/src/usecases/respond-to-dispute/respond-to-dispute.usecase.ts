import { Injectable } from '@nestjs/common';
import { AppException, Clock, NotFoundException } from '@app/common';
import { WalletAuthContext, WalletAuthService } from '@app/auth';
import { TransactionRunner } from '@app/database';
import { DisputeEntity } from '../../entities/dispute.entity';
import { DisputesRepository } from '../../disputes.repository';

export interface RespondToDisputeCommand {
  disputeId: string;
  response: string;
  evidence: string | null;
  /** The wallet signature, already verified as the signing agent's (WalletAuthGuard). */
  auth: WalletAuthContext;
}

/**
 * `POST /disputes/:id/respond`: the disputed agent answers, once, while the dispute is pending and
 * its window open. The signature must be the disputed agent's (403 otherwise) and is spent in the
 * transaction that records the answer.
 */
@Injectable()
export class RespondToDispute {
  constructor(
    private readonly repo: DisputesRepository,
    private readonly walletAuth: WalletAuthService,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(cmd: RespondToDisputeCommand): Promise<DisputeEntity> {
    const d = await this.repo.findById(cmd.disputeId);
    if (!d) throw new NotFoundException('DISPUTE_NOT_FOUND', 'Dispute', cmd.disputeId);
    if (d.agentId !== cmd.auth.agentId)
      throw new AppException('FORBIDDEN', "Only the disputed agent's wallet may respond to this dispute");
    if (d.status !== 'pending')
      throw new AppException('INVALID_STATE', `Only a pending dispute can be answered (status ${d.status})`, {
        status: d.status,
      });
    const now = this.clock.now();
    if (d.respondBy < now)
      throw new AppException('INVALID_STATE', 'The response window of this dispute has closed', {
        respondBy: d.respondBy.toISOString(),
      });
    return this.tx.run(async (manager) => {
      await this.walletAuth.consume(manager, cmd.auth);
      const answered = await this.repo.respond(manager, d.id, {
        response: cmd.response,
        evidence: cmd.evidence,
        at: now,
      });
      if (!answered)
        throw new AppException('INVALID_STATE', 'This dispute is no longer pending, or its response window has closed');
      return answered;
    });
  }
}
