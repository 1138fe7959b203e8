import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/common';
import { UsedAuthMessagesRepository } from '../../used-auth-messages.repository';

/** The worker's `auth-messages.prune`: deletes used messages whose timestamps can no longer pass the freshness check. */
@Injectable()
export class PruneUsedAuthMessages {
  constructor(
    private readonly repo: UsedAuthMessagesRepository,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** How many were deleted. */
  execute(): Promise<number> {
    return this.repo.deleteExpired(this.dataSource.manager, this.clock.now());
  }
}
