import { Injectable } from '@nestjs/common';
import { NotFoundException } from '@app/common';
import { DisputeEntity } from '../../entities/dispute.entity';
import { DisputesRepository } from '../../disputes.repository';

/** `GET /disputes/:id`: the Dispute resource, with the evidence the platform holds. */
@Injectable()
export class GetDispute {
  constructor(private readonly repo: DisputesRepository) {}

  async execute(id: string): Promise<DisputeEntity> {
    const d = await this.repo.findById(id);
    if (!d) throw new NotFoundException('DISPUTE_NOT_FOUND', 'Dispute', id);
    return d;
  }
}
