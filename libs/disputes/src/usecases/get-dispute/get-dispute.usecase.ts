import { Injectable } from '@nestjs/common';
import { NotFoundException } from '@app/common';
import { DisputeView } from '../../entities/dispute.entity';
import { DisputeViews } from '../../dispute-views';
import { DisputesRepository } from '../../disputes.repository';

/** `GET /disputes/:id`: the Dispute resource, with the evidence the platform holds and where its refund stands. */
@Injectable()
export class GetDispute {
  constructor(
    private readonly repo: DisputesRepository,
    private readonly views: DisputeViews,
  ) {}

  async execute(id: string): Promise<DisputeView> {
    const d = await this.repo.findById(id);
    if (!d) throw new NotFoundException('DISPUTE_NOT_FOUND', 'Dispute', id);
    return this.views.of(d);
  }
}
