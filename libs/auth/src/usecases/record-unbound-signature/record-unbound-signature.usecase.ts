import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppException } from '@app/common';
import { UsedAuthMessagesRepository } from '../../used-auth-messages.repository';
import { SIGNATURE_HEADER, type WalletAuthContext } from '../../wallet-auth.service';

/**
 * The contract's unbound message names no request, so whoever sees it (in a log, a proxy) could present
 * it elsewhere. Its (agent, timestamp) is recorded in Postgres when it is presented, before anything
 * else is done for the request:
 * - on a read, so that message can no longer authorize a change (reads may present it again);
 * - on a change, spent at once (401 when it already was, or was seen on a read), so a change that then
 *   fails (a 400, an insufficient balance) leaves nothing another request could use.
 * A bound message is left to `WalletAuthService.consume`, in the change's own transaction. Rows are
 * pruned with the spent ones once the window has passed.
 */
@Injectable()
export class RecordUnboundSignature {
  constructor(
    private readonly repo: UsedAuthMessagesRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Answers the context to carry on: for a change, marked spent. */
  async execute(auth: WalletAuthContext): Promise<WalletAuthContext> {
    if (!auth.unbound) return auth;
    const inserted = await this.repo.insert(this.dataSource.manager, auth);
    if (!auth.forChange) return auth;
    if (!inserted)
      throw new AppException(
        'UNAUTHORIZED',
        `${SIGNATURE_HEADER} has already been used for a change or presented on a read; sign a new message`,
      );
    return { ...auth, spent: true };
  }
}
