import { Injectable } from '@nestjs/common';
import { ExecuteTarget } from '@app/agents';
import { AppException, checksumAddress, Clock, ValidationException } from '@app/common';
import { AppConfig } from '@app/config';
import { OutboundUrlPolicy } from '@app/outbound';
import { Admission, ExecuteCommand, ExecuteRejected, ExecuteTargetCache, RateLimiter } from '@app/execution';
import { ExecutionPrice, priceFor } from '@app/catalog';
import { validateValue } from '@app/json-schema';
import { chainEnded } from '../../chain-rows';
import { ChainsRepository } from '../../chains.repository';
import { ChainTokenPayload, ChainTokens } from '../../chain-tokens';

/** What a call needs of its chain, all of it fixed when the chain opened and carried by its signed token. */
export interface ChainRef {
  id: string;
  rootWallet: string;
  traceId: string;
  maxDepth: number;
  startedAt: Date;
}

/** A sub-call admitted to run: its chain, the caller's token, the target and its price (the most it can cost). */
export interface AdmittedChainCall {
  token: ChainTokenPayload;
  chain: ChainRef;
  target: ExecuteTarget;
  price: ExecutionPrice;
  /** Who calls: the token's holder, an agent; for a token of the root's caller, that caller's wallet. */
  caller: string;
  depth: number;
  limits: Admission;
  /** A target served from memory: the agent's config_version the reservation must still find (null: just read). */
  version: string | null;
}

/**
 * Admission of a chained `POST /execute` (X-Chain-Token, no payment; resolutions §5), checks in
 * this order, each with the spec's code and details: the token (CHAIN_TOKEN_INVALID, then
 * CHAIN_TOKEN_EXPIRED), the chain's age (CHAIN_TIMEOUT), the target (AGENT_NOT_FOUND,
 * CAPABILITY_NOT_FOUND), depth (DEPTH_LIMIT), the call path (CIRCULAR_DEPENDENCY), the target's
 * chain settings (CHAIN_DISABLED, AGENT_NOT_CHAINABLE), the input (INPUT_SCHEMA_MISMATCH), then
 * the rate limits, counted against the calling agent. With a target in memory it reads nothing:
 * the chain's fixed facts come from the token, its state (running, not ended: CHAIN_NOT_FOUND) and
 * the budget (BUDGET_EXCEEDED) are decided by the reservation's guarded writes, which also confirm
 * the remembered target's version. A refusal of the target first asks whether the chain ended, so
 * CHAIN_NOT_FOUND keeps its place in the order.
 */
@Injectable()
export class AdmitChainCall {
  constructor(
    private readonly tokens: ChainTokens,
    private readonly chains: ChainsRepository,
    private readonly targets: ExecuteTargetCache,
    private readonly limiter: RateLimiter,
    private readonly urlPolicy: OutboundUrlPolicy,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** `fresh`: read the target even if one is remembered (its version moved since). */
  async execute(cmd: ExecuteCommand & { chainToken: string }, fresh = false): Promise<AdmittedChainCall> {
    if (cmd.payment)
      throw new ValidationException([
        {
          field: 'X-Chain-Token',
          messages: ['a chained call is paid by its chain: send X-Chain-Token without a payment header'],
        },
      ]);
    if (cmd.async) throw new ValidationException([{ field: 'async', messages: ['a chained call runs synchronously'] }]);
    const token = this.tokens.verify(cmd.chainToken);
    const chain: ChainRef = {
      id: token.cid,
      rootWallet: token.rw,
      traceId: token.tid,
      maxDepth: token.md,
      startedAt: new Date(token.sa),
    };
    if (chain.startedAt.getTime() + this.config.chainTimeoutS * 1000 <= this.clock.nowMs()) {
      throw new AppException(
        'CHAIN_TIMEOUT',
        `The chain ran longer than its time limit of ${this.config.chainTimeoutS} s`,
        { chainId: chain.id, startedAt: token.sa },
      );
    }
    const remembered = fresh ? undefined : this.targets.remembered(cmd.agentId, cmd.capabilityId);
    let target: ExecuteTarget;
    let depth: number;
    try {
      target = remembered ?? (await this.targets.read(cmd.agentId, cmd.capabilityId));
      depth = this.check(token, chain, target, cmd.input);
    } catch (err) {
      if (err instanceof AppException) await this.assertOpen(chain.id);
      // A remembered target may have changed since (chaining turned on, the caller listed, a new schema): refused only on a fresh read.
      if (remembered && err instanceof AppException) return this.execute(cmd, true);
      throw err;
    }
    if (cmd.callbackUrl) {
      const errors = await this.urlPolicy.fieldErrors({ callbackUrl: cmd.callbackUrl });
      if (errors.length) throw new ValidationException(errors);
    }
    const caller = token.cl ? token.rw : token.path[token.path.length - 1];
    // The root's caller is counted as the paying wallet it is (as its paid requests are), an agent as itself.
    const limits = await this.limiter.hit(token.cl ? checksumAddress(token.rw) : `agent:${caller}`, target.agent.id);
    if (limits.retryAfterS !== null) {
      this.limiter.giveBackAgentSlot(target.agent.id, limits.agentSlot);
      throw new ExecuteRejected(
        new AppException('RATE_LIMITED', 'Too many executions; retry later', { retryAfter: limits.retryAfterS }),
        limits,
      );
    }
    return {
      token,
      chain,
      target,
      price: priceFor(target.agent, target.capability, this.config.publicBaseUrl),
      caller,
      depth,
      limits,
      version: remembered ? remembered.version : null,
    };
  }

  /** The call's place in the chain and the target's rules; answers the new node's depth. */
  private check(token: ChainTokenPayload, chain: ChainRef, target: ExecuteTarget, input: unknown): number {
    const depth = token.d + 1;
    if (depth > chain.maxDepth)
      throw new AppException('DEPTH_LIMIT', 'The call would go deeper than the chain allows', {
        currentDepth: depth,
        maxDepth: chain.maxDepth,
      });
    // The root's caller is no agent of the path: it may call any agent, the root agent again included; below its calls the rule holds.
    if (!token.cl && token.path.includes(target.agent.id)) {
      throw new AppException('CIRCULAR_DEPENDENCY', 'The target agent is already in the call path', {
        chain: [...token.path, target.agent.id],
      });
    }
    const settings = target.agent.chainSettings;
    if (!settings.chain_enabled)
      throw new AppException('CHAIN_DISABLED', 'The target agent has chaining disabled', { agentId: target.agent.id });
    // The root's caller is no agent: an agent that takes chained calls only from listed agents does not take its calls.
    if (token.cl && settings.chain_allowed_callers.length > 0)
      throw new AppException('AGENT_NOT_CHAINABLE', 'The target agent takes chained calls from listed agents only', {
        agentId: target.agent.id,
        callerAgentId: null,
        reason: 'root_caller',
      });
    const caller = token.path[token.path.length - 1];
    if (
      !token.cl &&
      (settings.chain_blocked_callers.includes(caller) ||
        (settings.chain_allowed_callers.length > 0 && !settings.chain_allowed_callers.includes(caller)))
    ) {
      throw new AppException('AGENT_NOT_CHAINABLE', 'The target agent does not take chained calls from this caller', {
        agentId: target.agent.id,
        callerAgentId: caller,
      });
    }
    const inputErrors = validateValue(target.agent.id, target.capability.inputSchema, input);
    if (inputErrors.length)
      throw new AppException('INPUT_SCHEMA_MISMATCH', 'input does not match the capability inputSchema', {
        errors: inputErrors,
      });
    return depth;
  }

  /** CHAIN_NOT_FOUND if the chain does not exist or has ended (asked only on the way to a refusal). */
  private async assertOpen(chainId: string): Promise<void> {
    const chain = await this.chains.find(chainId);
    if (!chain || chainEnded(chain, this.clock.now()))
      throw new AppException('CHAIN_NOT_FOUND', 'The chain does not exist or has ended', { chainId });
  }
}
