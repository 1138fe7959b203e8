import { Injectable } from '@nestjs/common';
import { ExecuteTarget } from '@app/agents';
import { ChainRow, ChainsRepository, ChainTokenPayload, ChainTokens } from '@app/chains';
import { AppException, Clock, ValidationException } from '@app/common';
import { AppConfig } from '@app/config';
import { TransactionRunner } from '@app/database';
import { OutboundUrlPolicy } from '@app/outbound';
import { ExecuteTargets } from '../../admission/execute-targets';
import { Admission, RateLimiter } from '../../admission/rate-limiter';
import { ExecuteCommand, ExecuteRejected } from '../../execution.types';
import { ExecutionPrice, priceFor } from '../../execution-factory';
import { validateAgainst } from '../../json-schema';

/** A sub-call admitted to run: its chain, the caller's token, the target and its price (the most it can cost). */
export interface AdmittedChainCall {
  token: ChainTokenPayload;
  chain: ChainRow;
  target: ExecuteTarget;
  price: ExecutionPrice;
  /** The calling agent: the token's holder. */
  caller: string;
  depth: number;
  limits: Admission;
}

/**
 * Admission of a chained `POST /execute` (X-Chain-Token, no payment; resolutions §5), checks in
 * this order, each with the spec's code and details: the token (CHAIN_TOKEN_INVALID, then
 * CHAIN_TOKEN_EXPIRED), the chain (CHAIN_NOT_FOUND once final, CHAIN_TIMEOUT past its time
 * limit), the target (AGENT_NOT_FOUND, CAPABILITY_NOT_FOUND), depth (DEPTH_LIMIT), the call path
 * (CIRCULAR_DEPENDENCY), the target's chain settings (CHAIN_DISABLED, AGENT_NOT_CHAINABLE), the
 * input (INPUT_SCHEMA_MISMATCH), then the rate limits, counted against the calling agent. The
 * budget is decided when the node is written (BUDGET_EXCEEDED).
 */
@Injectable()
export class AdmitChainCall {
  constructor(
    private readonly tokens: ChainTokens,
    private readonly chains: ChainsRepository,
    private readonly targets: ExecuteTargets,
    private readonly limiter: RateLimiter,
    private readonly urlPolicy: OutboundUrlPolicy,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(cmd: ExecuteCommand & { chainToken: string }): Promise<AdmittedChainCall> {
    if (cmd.payment) throw new ValidationException([{ field: 'X-Chain-Token', messages: ['a chained call is paid by its chain: send X-Chain-Token without a payment header'] }]);
    if (cmd.async) throw new ValidationException([{ field: 'async', messages: ['a chained call runs synchronously'] }]);
    const token = this.tokens.verify(cmd.chainToken);
    // One round trip: the chain, and the remembered target's version (or the target itself).
    const remembered = this.targets.remembered(cmd.agentId, cmd.capabilityId);
    const [found, version] = await this.tx.batch((sql) => [this.chains.find(token.cid, sql), remembered ? this.targets.version(sql, cmd.agentId) : Promise.resolve(null)] as const);
    if (found.status === 'rejected') throw found.reason;
    const chain = found.value;
    if (!chain || !['running', 'pending'].includes(chain.status)) throw new AppException('CHAIN_NOT_FOUND', 'The chain does not exist or has ended', { chainId: token.cid });
    if (chain.expiresAt.getTime() <= this.clock.nowMs()) {
      throw new AppException('CHAIN_TIMEOUT', `The chain ran longer than its time limit of ${this.config.chainTimeoutS} s`, {
        chainId: chain.id,
        startedAt: chain.startedAt.toISOString(),
      });
    }
    if (version.status === 'rejected') throw version.reason;
    const target = remembered ? await this.targets.confirm(remembered, version.value, cmd.agentId, cmd.capabilityId) : await this.targets.read(cmd.agentId, cmd.capabilityId);
    const depth = token.d + 1;
    if (depth > chain.maxDepth) throw new AppException('DEPTH_LIMIT', 'The call would go deeper than the chain allows', { currentDepth: depth, maxDepth: chain.maxDepth });
    if (token.path.includes(target.agent.id)) {
      throw new AppException('CIRCULAR_DEPENDENCY', 'The target agent is already in the call path', { chain: [...token.path, target.agent.id] });
    }
    const caller = token.path[token.path.length - 1];
    const settings = target.agent.chainSettings;
    if (!settings.chain_enabled) throw new AppException('CHAIN_DISABLED', 'The target agent has chaining disabled', { agentId: target.agent.id });
    if (settings.chain_blocked_callers.includes(caller) || (settings.chain_allowed_callers.length > 0 && !settings.chain_allowed_callers.includes(caller))) {
      throw new AppException('AGENT_NOT_CHAINABLE', 'The target agent does not take chained calls from this caller', { agentId: target.agent.id, callerAgentId: caller });
    }
    const inputErrors = validateAgainst(target.capability.inputSchema, cmd.input, target.agent.id);
    if (inputErrors.length) throw new AppException('INPUT_SCHEMA_MISMATCH', 'input does not match the capability inputSchema', { errors: inputErrors });
    if (cmd.callbackUrl) {
      const errors = await this.urlPolicy.fieldErrors({ callbackUrl: cmd.callbackUrl });
      if (errors.length) throw new ValidationException(errors);
    }
    const limits = await this.limiter.hit(`agent:${caller}`, target.agent.id);
    if (limits.retryAfterS !== null) {
      this.limiter.giveBackAgentSlot(target.agent.id, limits.agentSlot);
      throw new ExecuteRejected(new AppException('RATE_LIMITED', 'Too many executions; retry later', { retryAfter: limits.retryAfterS }), limits);
    }
    return { token, chain, target, price: priceFor(target.agent, target.capability, this.config.publicBaseUrl), caller, depth, limits };
  }
}
