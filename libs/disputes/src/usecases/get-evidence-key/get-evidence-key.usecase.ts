import { Injectable } from '@nestjs/common';
import { AppException, NotFoundException } from '@app/common';
import { WalletAuthContext } from '@app/auth';
import { EvidenceKeys } from '@app/execution';
import { DisputesRepository } from '../../disputes.repository';

export interface DisputeEvidenceKey {
  disputeId: string;
  transactionId: string;
  /** HMAC-SHA256 key (hex) of the dispute's `inputHash` and `outputHash`. */
  evidenceKey: string;
}

/**
 * `GET /disputes/:id/evidence-key`: the disputed agent's wallet gets the key of the evidence
 * hashes, so it can check them against what it was sent and answered. The payer gets it when it
 * files. Nobody else: with the key, the hashes of a short output can be reversed by guessing.
 */
@Injectable()
export class GetEvidenceKey {
  constructor(
    private readonly repo: DisputesRepository,
    private readonly keys: EvidenceKeys,
  ) {}

  async execute(disputeId: string, auth: WalletAuthContext): Promise<DisputeEvidenceKey> {
    const d = await this.repo.findById(disputeId);
    if (!d) throw new NotFoundException('DISPUTE_NOT_FOUND', 'Dispute', disputeId);
    if (d.agentId.toLowerCase() !== auth.agentId.toLowerCase())
      throw new AppException('FORBIDDEN', 'Only the disputed agent reads the evidence key');
    return { disputeId: d.id, transactionId: d.transactionId, evidenceKey: this.keys.keyFor(d.transactionId) };
  }
}
