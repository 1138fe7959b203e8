import { Injectable } from '@nestjs/common';
import { AppException } from '@app/common';
import { TransactionRunner } from '@app/database';
import { WalletAuthContext, WalletAuthService } from '@app/auth';
import { AgentsRepository } from '../../agents.repository';
import { lockOwnedAgent } from '../owned-agent';

/** `DELETE /agents/:id` (wallet-signed): the agent is kept, `inactive`; a suspended one cannot leave suspension this way. */
@Injectable()
export class DeactivateAgent {
  constructor(
    private readonly repo: AgentsRepository,
    private readonly tx: TransactionRunner,
    private readonly walletAuth: WalletAuthService,
  ) {}

  async execute(id: string, auth: WalletAuthContext): Promise<void> {
    await this.tx.run(async (manager) => {
      const agent = await lockOwnedAgent(this.repo, manager, id, auth);
      await this.walletAuth.consume(manager, auth);
      if (agent.status === 'suspended') {
        throw new AppException('INVALID_STATE', 'A suspended agent cannot be deactivated by its owner', {
          status: agent.status,
        });
      }
      if (agent.status !== 'inactive') await this.repo.update(manager, id, { status: 'inactive' });
    });
  }
}
