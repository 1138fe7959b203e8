import { Injectable } from '@nestjs/common';
import { ConsoleSessions } from '@app/auth';
import type { ConsoleSessionRow } from '@app/auth';
import { AppException, sameWallet } from '@app/common';
import { AgentsRepository } from '../../agents.repository';

/**
 * `POST /console/sessions`: a signed EIP-4361 message becomes a console session for reads. As an
 * agent, the message's address must be the agent's registered wallet (FORBIDDEN otherwise, and
 * for no such agent: an agent's existence is not told apart from another's wallet); as a wallet,
 * any address signs for itself.
 */
@Injectable()
export class ConsoleSignIn {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly agents: AgentsRepository,
  ) {}

  async execute(
    message: string,
    signature: string,
    userAgent: string | undefined,
  ): Promise<{ session: ConsoleSessionRow; token: string }> {
    const checked = this.sessions.check(message, signature);
    if (checked.grant.kind === 'agent') {
      const wallet = await this.agents.walletOf(checked.grant.agentId);
      if (!wallet || !sameWallet(wallet, checked.address))
        throw new AppException('FORBIDDEN', "The message's address is not the agent's registered wallet", {
          reason: 'not_agent_wallet',
        });
    }
    return this.sessions.open(checked, userAgent);
  }
}
