import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/common';
import { UsedAuthMessagesRepository } from '../../used-auth-messages.repository';
import { ConsoleSessionsRepository } from '../../console/console-sessions.repository';

/**
 * The worker's `auth-messages.prune`: deletes used messages whose timestamps can no longer pass the
 * freshness check, the console's used sign-in nonces once expired, and sessions a day after they ended.
 */
@Injectable()
export class PruneUsedAuthMessages {
  constructor(
    private readonly repo: UsedAuthMessagesRepository,
    private readonly console: ConsoleSessionsRepository,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** How many were deleted. */
  async execute(): Promise<number> {
    const now = this.clock.now();
    return (await this.repo.deleteExpired(this.dataSource.manager, now)) + (await this.console.prune(now));
  }
}
