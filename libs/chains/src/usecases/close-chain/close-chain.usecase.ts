import { Injectable } from '@nestjs/common';
import { AppException, Clock } from '@app/common';
import { ChainTokens } from '../../chain-tokens';
import { ChainsRepository } from '../../chains.repository';
import { FinishChain } from '../finish-chain/finish-chain.usecase';
import { ChainStatusView, GetChain } from '../get-chain/get-chain.usecase';

/**
 * `POST /chains/:id/close` with a token of the root's caller: the caller is done, so the chain does
 * not wait for its tokens to expire. They are given up (every token of the root's caller is refused
 * from now on) and the chain is finished at once when nothing runs (its unspent budget refunded
 * before the answer), else when the last call running ends. Idempotent: closing a closed chain
 * changes nothing. FORBIDDEN for a token that is not the root's caller's or names another chain.
 */
@Injectable()
export class CloseChain {
  constructor(
    private readonly tokens: ChainTokens,
    private readonly repo: ChainsRepository,
    private readonly finish: FinishChain,
    private readonly getChain: GetChain,
    private readonly clock: Clock,
  ) {}

  /** Answers the chain as its payer reads it (GetChain), after the close. */
  async execute(chainId: string, chainToken: string | undefined): Promise<ChainStatusView> {
    if (chainToken === undefined)
      throw new AppException('UNAUTHORIZED', "Closing a chain takes its root caller's X-Chain-Token");
    const claims = this.tokens.verify(chainToken);
    if (claims.cl !== true || claims.cid !== chainId.toLowerCase())
      throw new AppException('FORBIDDEN', "Only the root's caller closes a chain, with a token of that chain", {
        reason: claims.cl === true ? 'other_chain' : 'not_root_caller',
      });
    if (await this.repo.releaseHold(claims.cid, this.clock.now())) await this.finish.execute(claims.cid);
    return this.getChain.execute(claims.cid, { chainToken });
  }
}
