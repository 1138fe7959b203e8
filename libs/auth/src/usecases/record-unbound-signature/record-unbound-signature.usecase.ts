import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { UsedAuthMessagesRepository } from '../../used-auth-messages.repository';
import type { WalletAuthContext } from '../../wallet-auth.service';

/**
 * A read presented the contract's unbound message: records its (agent, timestamp) in Postgres before
 * the read is answered, so that message can no longer authorize a change (`consume` finds it taken).
 * Reads may present it again within its window; only the first one writes a row. Rows are pruned
 * with the spent ones once the window has passed.
 */
@Injectable()
export class RecordReadSignature {
  constructor(
    private readonly repo: UsedAuthMessagesRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async execute(auth: WalletAuthContext): Promise<void> {
    if (auth.forChange || !auth.unbound) return;
    await this.repo.insert(this.dataSource.manager, auth);
  }
}
