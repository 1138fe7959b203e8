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
/** How long past its window a used message is kept. */
export const PRUNE_MARGIN_MS = 60_000;

@Injectable()
export class PruneUsedAuthMessages {
  constructor(
    private readonly repo: UsedAuthMessagesRepository,
    private readonly console: ConsoleSessionsRepository,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * How many were deleted. Used messages are kept a minute past their window: the api that checks a
   * timestamp's freshness and this process may not share a clock, and a row deleted early would let a
   * message seen on a read authorize a change in the window's last instants.
   */
  async execute(): Promise<number> {
    const now = this.clock.now();
    const used = await this.repo.deleteExpired(this.dataSource.manager, new Date(now.getTime() - PRUNE_MARGIN_MS));
    return used + (await this.console.prune(now));
  }
}
