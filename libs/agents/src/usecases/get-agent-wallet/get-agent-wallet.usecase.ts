import { Injectable } from '@nestjs/common';
import { NotFoundException } from '@app/common';
import { AgentsRepository } from '../../agents.repository';

/** The registered wallet, for signature checks (the wallet-auth guard). */
@Injectable()
export class GetAgentWallet {
  constructor(private readonly repo: AgentsRepository) {}

  async execute(id: string): Promise<string> {
    const wallet = await this.repo.walletOf(id);
    if (wallet === null) throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', id);
    return wallet;
  }
}
