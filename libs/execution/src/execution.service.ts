import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AgentCapabilityEntity, AgentEntity, VARIABLE_PRICING_MODELS } from '@app/agents';
import { AppException, Clock, formatMicros, newId, NotFoundException, ValidationException } from '@app/common';
import { AppConfig } from '@app/config';
import { allWrites, PG_NOT_CLAIMED, pgErrorCode, Queryable, queryRows, TransactionRunner } from '@app/database';
import { OutboundUrlPolicy } from '@app/outbound';
import { OutboxService } from '@app/outbox';
import { EscrowHoldEntity, EscrowService, NonceGuard, PaymentEntity, paymentReplayed, PaymentsService, PLATFORM_FEE, RecoveredPayment, PriceRequest, RefundEntity, RefundsService, SettlementAdapter, splitAgentFee, VerifiedPayment, X402Service } from '@app/payments';
import { jobId, JobProducer } from '@app/queues';
import { DeliveryService } from '@app/webhooks';
import { AgentCaller, AgentCallResult } from './agent-caller';
import { ExecutableAgent, ExecutableCapability, ExecuteTargets } from './execute-targets';
import { meterAgentFee, PricedRun } from './pricing';
import { ExecutionEntity } from './entities/execution.entity';
import { canonicalJson, validateAgainst } from './json-schema';
import { RateLimiter, rateLimitHeaders, RateLimitState } from './rate-limiter';

export interface ExecuteCommand {
  agentId: string;
  capabilityId: string;
  input: Record<string, unknown>;
  callbackUrl?: string;
  idempotencyKey?: string;
  async: boolean;
  headers: Record<string, string | undefined>;
  clientIp: string;
}

/** What a settled execution's response shows about its payment. */
export interface Settlement {
  txHash: string | null;
  /** The x402 settlement response header. */
  headers: Record<string, string>;
  refund: RefundEntity | null;
}

/** An execution after a run, with its settlement when this call charged it (so nothing is read back). */
export interface ExecutionOutcome {
  execution: ExecutionEntity;
  settlement: Settlement | null;
}

export interface ExecuteResult extends ExecutionOutcome {
  /** An idempotent repeat: the stored execution, nothing charged. */
  replayed: boolean;
  headers: Record<string, string>;
}

export const MAX_RETRIES = 3;
const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

class IdempotencyRace extends Error {}
/** Another run claimed the execution first: this one's writes roll back. */
class NotClaimed extends Error {}


interface Loaded {
  execution: ExecutionEntity;
  agent: ExecutableAgent | null;
  capability: ExecutableCapability | null;
  payment: PaymentEntity;
}

/**
 * Paid execution (resolutions §2, §4): validate (nothing charged) -> verify the payment ->
 * rate limits -> idempotency -> reserve the authorization and create the execution in one
 * transaction -> call the agent -> settle -> record the charge. A failed or timed-out call
 * settles nothing; the stored authorization pays for a retry until it expires.
 */
@Injectable()
export class ExecutionService {
  constructor(
    private readonly x402: X402Service,
    private readonly payments: PaymentsService,
    private readonly nonces: NonceGuard,
    private readonly adapter: SettlementAdapter,
    private readonly escrow: EscrowService,
    private readonly refunds: RefundsService,
    private readonly outbox: OutboxService,
    private readonly caller: AgentCaller,
    private readonly deliveries: DeliveryService,
    private readonly limiter: RateLimiter,
    private readonly targets: ExecuteTargets,
    private readonly urlPolicy: OutboundUrlPolicy,
    private readonly jobs: JobProducer,
    private readonly tx: TransactionRunner,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async execute(cmd: ExecuteCommand): Promise<ExecuteResult> {
    let limits: RateLimitState | null = null;
    try {
      // The target comes from memory, confirmed below by its version; otherwise its read goes out
      // first. The payment's signer is recovered (CPU) meanwhile, then "authorization used?" and
      // the version go out together on one connection, and the rate-limit script takes the nonce
      // claim in its own round trip alongside: concurrent replays of one header stop before any
      // work. A request turned away below gives the claim back. Every execute answer carries the
      // limit headers (counted per payer once the signature proves who pays, per IP otherwise).
      const remembered = this.targets.remembered(cmd.agentId, cmd.capabilityId);
      const targetRead = remembered ? null : this.targets.read(cmd.agentId, cmd.capabilityId);
      const header = this.x402.headerOf(cmd.headers);
      let recovered: RecoveredPayment | null = null;
      let recoverError: unknown = null;
      if (header) {
        try {
          recovered = this.x402.recover(header);
        } catch (err) {
          recoverError = err;
        }
      }
      const nonce = recovered
        ? { chainId: recovered.option.network.chainId, asset: recovered.option.asset, payer: recovered.payer, nonce: recovered.auth.nonce, validBefore: recovered.auth.validBefore }
        : null;
      const reads =
        remembered || nonce
          ? this.tx.batch((sql) => [remembered ? this.targets.version(sql, cmd.agentId) : Promise.resolve(null), nonce ? this.payments.authorizationUsed(nonce, sql) : Promise.resolve(false)] as const)
          : Promise.resolve([{ status: 'fulfilled', value: null }, { status: 'fulfilled', value: false }] as const);
      const [read, hit, checks] = await Promise.allSettled([
        targetRead ?? Promise.resolve(null),
        this.limiter.hit(recovered ? recovered.payer : `ip:${cmd.clientIp}`, cmd.agentId, nonce ? this.nonces.claimRequest(nonce) : undefined),
        reads,
      ]);
      if (hit.status === 'rejected') throw hit.reason;
      limits = hit.value;
      const holdsClaim = hit.value.claimed === true;
      let verified: VerifiedPayment;
      let fingerprint: string;
      let agent: ExecutableAgent;
      let capability: ExecutableCapability;
      let price: PriceRequest & PricedRun;
      try {
        if (limits.retryAfterS !== null) {
          throw new AppException('RATE_LIMITED', 'Too many executions; retry later', { retryAfter: limits.retryAfterS }, { headers: rateLimitHeaders(limits) });
        }
        if (checks.status === 'rejected') throw checks.reason;
        const [version, used] = checks.value;
        if (read.status === 'rejected') throw read.reason;
        if (version.status === 'rejected') throw version.reason;
        ({ agent, capability } = remembered ? await this.targets.confirm(remembered, version.value, cmd.agentId, cmd.capabilityId) : read.value!);
        const inputErrors = validateAgainst(capability.inputSchema, cmd.input);
        if (inputErrors.length) throw new AppException('INPUT_SCHEMA_MISMATCH', 'input does not match the capability inputSchema', { errors: inputErrors });
        if (cmd.callbackUrl) await this.checkCallback(cmd.callbackUrl);
        price = this.priceFor(agent, capability);

        if (!header) throw this.x402.paymentRequired(price);
        if (recoverError) throw recoverError instanceof AppException && recoverError.code === 'PAYMENT_INVALID' ? this.x402.withOffer(recoverError, price) : recoverError;
        verified = this.x402.verify(header, price, recovered!);
        if (used.status === 'rejected') throw used.reason;

        fingerprint = createHash('sha256').update(`${agent.id}\n${capability.capabilityId}\n${canonicalJson(cmd.input)}`).digest('hex');
        if (cmd.idempotencyKey) {
          const prior = await this.findIdempotent(verified.payer, cmd.idempotencyKey, fingerprint);
          if (prior) {
            if (holdsClaim) this.nonces.giveBack(verified);
            return { execution: prior, settlement: null, replayed: true, headers: rateLimitHeaders(limits) };
          }
        }
        if (used.value) throw paymentReplayed();
        await this.adapter.preflight(verified);
        if (!holdsClaim) throw paymentReplayed();
      } catch (err) {
        if (holdsClaim && nonce) this.nonces.giveBackAfter(err, nonce);
        throw err;
      }
      if (!cmd.async && !cmd.idempotencyKey) {
        const outcome = await this.runThenRecord(verified, agent, capability, cmd, price);
        return { ...outcome, replayed: false, headers: rateLimitHeaders(limits) };
      }
      let created: { execution: ExecutionEntity; payment: PaymentEntity };
      try {
        created = await this.create(verified, agent, capability, cmd, fingerprint, price);
      } catch (err) {
        // Not reserved after all (a used nonce excepted): give the claim back.
        this.nonces.giveBackAfter(err, verified);
        if (!(err instanceof IdempotencyRace)) throw err;
        const prior = await this.findIdempotent(verified.payer, cmd.idempotencyKey!, fingerprint);
        return { execution: prior!, settlement: null, replayed: true, headers: rateLimitHeaders(limits) };
      }
      if (cmd.async) {
        await this.enqueueRun(created.execution.id);
        return { execution: created.execution, settlement: null, replayed: false, headers: rateLimitHeaders(limits) };
      }
      // A sync execution is created already claimed by this request (locked_until set).
      const outcome = await this.runClaimed({ ...created, agent, capability });
      return { ...outcome, replayed: false, headers: rateLimitHeaders(limits) };
    } catch (err) {
      throw withHeaders(err, limits ? rateLimitHeaders(limits) : {});
    }
  }

  /**
   * For an execute request turned away before the service saw it (its body failed validation):
   * counts it against the caller's IP and the agent it names, and gives the error the limit
   * headers every execute answer carries. Without Redis the error goes out as it is.
   */
  async countRejected(err: unknown, clientIp: string, targetAgentId: unknown): Promise<unknown> {
    if (!(err instanceof AppException) || err.extra?.headers?.['X-RateLimit-Client-Remaining'] !== undefined) return err;
    const agentKey = typeof targetAgentId === 'string' && /^[0-9a-f-]{36}$/i.test(targetAgentId) ? targetAgentId.toLowerCase() : 'invalid';
    try {
      const limits = await this.limiter.hit(`ip:${clientIp}`, agentKey);
      return withHeaders(err, rateLimitHeaders(limits));
    } catch {
      return err;
    }
  }

  /** Re-runs a failed or timed-out execution with its stored, still unused authorization. */
  async retry(id: string): Promise<ExecutionOutcome> {
    const execution = await this.get(id);
    if (!['failed', 'timeout'].includes(execution.status)) {
      throw new AppException('INVALID_STATE', `Only a failed or timed-out execution can be retried (status ${execution.status})`, { status: execution.status });
    }
    if (execution.retryCount >= MAX_RETRIES) throw new AppException('INVALID_STATE', `An execution can be retried at most ${MAX_RETRIES} times`, { retryCount: execution.retryCount });
    const payment = await this.payments.get(execution.paymentId);
    const nowS = BigInt(Math.floor(this.clock.nowMs() / 1000));
    if (!payment || payment.status !== 'reserved' || payment.validBefore < nowS + 6n) {
      throw new AppException('INVALID_STATE', 'The payment authorization of this execution has expired; execute again with a new payment', { paymentStatus: payment?.status });
    }
    const [reset] = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `UPDATE executions SET status = 'pending', retry_count = retry_count + 1, agent_error = NULL, locked_until = NULL
        WHERE id = $1 AND status IN ('failed', 'timeout') AND retry_count < $2 RETURNING id`,
      [id, MAX_RETRIES],
    );
    if (!reset) throw new AppException('INVALID_STATE', 'The execution changed while retrying; read its status');
    if (execution.isAsync) {
      await this.enqueueRun(id);
      return { execution: await this.get(id), settlement: null };
    }
    return this.run(id);
  }

  async get(id: string): Promise<ExecutionEntity> {
    const execution = await this.dataSource.manager.findOne(ExecutionEntity, { where: { id } });
    if (!execution) throw new NotFoundException('EXECUTION_NOT_FOUND', 'Execution', id);
    return execution;
  }

  /** The settlement hash and x402 response header of a settled execution, and its refund if it has one. */
  async settlement(execution: ExecutionEntity): Promise<Settlement> {
    const refund = execution.refundId ? await this.refunds.get(execution.refundId) : null;
    if (execution.settlementStatus !== 'settled') return { txHash: null, headers: {}, refund };
    const payment = await this.payments.get(execution.paymentId);
    return payment ? { txHash: payment.txHash, headers: this.payments.settlementHeaders(payment), refund } : { txHash: null, headers: {}, refund };
  }

  /** Whether the request carries the payment header of the original execute call. */
  isPayer(execution: ExecutionEntity, headers: Record<string, string | undefined>): boolean {
    const header = this.x402.headerOf(headers);
    return header !== null && X402Service.hashHeader(header.value) === execution.headerHash;
  }

  /**
   * A sync execute without an idempotency key: nothing is written before the agent answers.
   * The nonce is already claimed (payments read + Redis), so no replay reaches the agent; then
   * the payment, the execution in its final state and, on success with inline settlement, the
   * charge are one transaction (the unique index on payments decides at commit). A crash before
   * that commit leaves nothing behind: no charge and no answer, and the authorization unused.
   */
  private async runThenRecord(verified: VerifiedPayment, agent: ExecutableAgent, capability: ExecutableCapability, cmd: ExecuteCommand, price: PricedRun): Promise<ExecutionOutcome> {
    const execution = this.newExecution(verified, agent, capability, cmd, price, newId('pay'), null);
    const payment = this.payments.unsavedReservation(verified, 'execution', execution.paymentId);
    try {
      const called = await this.caller.call(agent.endpoints.execution, { requestId: execution.id, capabilityId: execution.capabilityId, input: execution.input }, capability.outputSchema);
      const result = metered(execution, called);
      if (!result.ok) {
        Object.assign(execution, { status: result.status, agentError: result.error, executionTimeMs: result.timeMs, completedAt: this.clock.now() });
        const callback = await this.tx.pipelined(
          async (m) => {
            const [, , scheduled] = await allWrites([
              this.payments.reserve(verified, 'execution', m, payment.id),
              this.insertExecution(m, execution),
              this.failureWrites(m, execution, result),
            ]);
            return scheduled;
          },
        );
        if (callback) await this.deliveries.wake(callback, 0);
        return { execution, settlement: null };
      }
      Object.assign(execution, {
        status: 'completed',
        output: result.output,
        executionTimeMs: result.timeMs,
        settlementStatus: 'settlement_pending',
        completedAt: this.clock.now(),
        agentFee: result.agentFee,
        usageTokens: result.tokens,
      });
      const inlineHash = this.payments.inlineSettlement(payment);
      if (inlineHash) return await this.charge(execution, payment, inlineHash, agent.reputationScore, { insert: true });
      await this.tx.pipelined((m) => allWrites([this.payments.reserve(verified, 'execution', m, payment.id), this.insertExecution(m, execution)]));
    } catch (err) {
      // Nothing was recorded: the authorization stays unused and may be presented again.
      this.nonces.giveBackAfter(err, verified);
      throw err;
    }
    return this.settleAndCharge(execution.id, agent.reputationScore, execution);
  }

  /** Inside the transaction that records a failed run: its event, and its callback's first delivery (the id, if any). */
  private failureWrites(m: Queryable, e: ExecutionEntity, failure: { status: string; error: string }): Promise<string | null> {
    return allWrites([
      this.outbox.record(m, 'execution.failed', e.agentId, { requestId: e.id, agentId: e.agentId, capabilityId: e.capabilityId, error: failure.error }),
      e.callbackUrl
        ? this.deliveries.scheduleCallback(m, { executionId: e.id, url: e.callbackUrl, body: { requestId: e.id, status: failure.status, error: failure.error } })
        : Promise.resolve(null),
    ]).then(([, callback]) => callback);
  }

  /** Every column of an execution row, as it stands in memory. */
  private insertExecution(m: Queryable, e: ExecutionEntity): Promise<unknown> {
    return m.query(
      `INSERT INTO executions (id, agent_id, capability_id, payer, input, output, status, settlement_status, agent_error, execution_time_ms, agent_fee,
                               authorized_agent_fee, pricing_model, unit_price, usage_tokens, refund_id, platform_fee, payment_id, transaction_id, header_hash,
                               is_async, callback_url, locked_until, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)`,
      [
        e.id,
        e.agentId,
        e.capabilityId,
        e.payer,
        e.input,
        e.output,
        e.status,
        e.settlementStatus,
        e.agentError,
        e.executionTimeMs,
        e.agentFee.toString(),
        e.authorizedAgentFee.toString(),
        e.pricingModel,
        e.unitPrice.toString(),
        e.usageTokens,
        e.refundId,
        e.platformFee.toString(),
        e.paymentId,
        e.transactionId,
        e.headerHash,
        e.isAsync,
        e.callbackUrl,
        e.lockedUntil,
        e.completedAt,
      ],
    );
  }

  /** Claims a pending execution and runs it: the worker step for async runs, and retries. */
  async run(id: string): Promise<ExecutionOutcome> {
    const now = this.clock.now();
    const [claimed] = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `UPDATE executions SET locked_until = $2 WHERE id = $1 AND status = 'pending' AND (locked_until IS NULL OR locked_until < $3) RETURNING id`,
      [id, this.claimUntil(now), now],
    );
    if (!claimed) return { execution: await this.get(id), settlement: null };
    const execution = await this.get(id);
    const [agent, capability, payment] = await Promise.all([
      this.dataSource.manager.findOne(AgentEntity, { where: { id: execution.agentId } }),
      this.dataSource.manager.findOne(AgentCapabilityEntity, { where: { agentId: execution.agentId, capabilityId: execution.capabilityId } }),
      this.payments.get(execution.paymentId),
    ]);
    return this.runClaimed({ execution, agent, capability, payment: payment! });
  }

  /**
   * Runs an execution this process has claimed: calls the agent and records the outcome. A
   * success is settled and charged; with a settlement that has no outside effect (local mode)
   * the completion, the settlement and the charge are one transaction.
   */
  private async runClaimed(loaded: Loaded): Promise<ExecutionOutcome> {
    const { execution, agent, capability, payment } = loaded;
    const id = execution.id;
    const called =
      agent && capability && agent.status === 'active'
        ? await this.caller.call(agent.endpoints.execution, { requestId: id, capabilityId: execution.capabilityId, input: execution.input }, capability.outputSchema)
        : ({ ok: false, status: 'failed', error: 'agent or capability is no longer available', timeMs: 0 } as const);
    const result = metered(execution, called);
    if (!result.ok) {
      const callback = await this.tx.run(async (m) => {
        const [failed] = await queryRows<{ id: string }>(
          m,
          `UPDATE executions SET status = $2, agent_error = $3, execution_time_ms = $4, locked_until = NULL, completed_at = $5 WHERE id = $1 AND status = 'pending' RETURNING id`,
          [id, result.status, result.error, result.timeMs, this.clock.now()],
        );
        return failed ? this.failureWrites(m, execution, result) : null;
      });
      if (callback) await this.deliveries.wake(callback, 0);
      return { execution: await this.get(id), settlement: null };
    }
    const completion = {
      status: 'completed' as const,
      output: result.output,
      executionTimeMs: result.timeMs,
      settlementStatus: 'settlement_pending' as const,
      lockedUntil: null,
      completedAt: this.clock.now(),
      agentFee: result.agentFee,
      usageTokens: result.tokens,
    };
    const inlineHash = this.payments.inlineSettlement(payment);
    if (inlineHash) return this.charge(Object.assign(execution, completion), payment, inlineHash, agent!.reputationScore, { complete: true });
    await this.dataSource.query(
      `UPDATE executions SET status = 'completed', output = $2, execution_time_ms = $3, settlement_status = 'settlement_pending', locked_until = NULL, completed_at = $4,
              agent_fee = $5, usage_tokens = $6
        WHERE id = $1 AND status = 'pending'`,
      [id, completion.output, completion.executionTimeMs, completion.completedAt, completion.agentFee.toString(), completion.usageTokens],
    );
    return this.settleAndCharge(id, agent!.reputationScore, Object.assign(execution, completion));
  }

  /**
   * Settles the payment of a completed execution and records the charge, once: the settlement
   * status is claimed in the same transaction as the ledger posting. A failed settlement stays
   * `settlement_failed` (output withheld) for the retry job.
   */
  async settleAndCharge(id: string, reputation?: number, loaded?: ExecutionEntity): Promise<ExecutionOutcome> {
    const execution = loaded ?? (await this.get(id));
    if (execution.status !== 'completed' || execution.settlementStatus === 'settled') return { execution, settlement: null };
    let payment = await this.payments.get(execution.paymentId);
    if (!payment) throw new AppException('NOT_FOUND', `Payment ${execution.paymentId} not found`);
    const inlineHash = this.payments.inlineSettlement(payment);
    if (!inlineHash) {
      try {
        payment = await this.payments.settle(execution.paymentId);
      } catch (err) {
        if (!(err instanceof AppException) || err.code !== 'SETTLEMENT_FAILED') throw err;
        await this.dataSource.query(`UPDATE executions SET settlement_status = 'settlement_failed' WHERE id = $1 AND settlement_status <> 'settled'`, [id]);
        return { execution: await this.get(id), settlement: null };
      }
    }
    return this.charge(execution, payment, inlineHash, reputation, {});
  }

  /**
   * One transaction, one round trip of writes (pipeline mode): claim the settlement (with the
   * completion itself when `complete`; or, for `insert`, insert the payment already settled and
   * the finished execution), settle inline or link the payment, the event, the charge and its
   * escrow, the agent's counter, the callback. A lost claim rolls all back.
   */
  private async charge(
    execution: ExecutionEntity,
    payment: PaymentEntity,
    inlineHash: string | null,
    reputation: number | undefined,
    mode: { complete?: boolean; /** A sync execution written now, with its payment settled inline (inlineHash set). */ insert?: true },
  ): Promise<ExecutionOutcome> {
    const id = execution.id;
    const score = reputation ?? (await this.dataSource.manager.findOne(AgentEntity, { where: { id: execution.agentId } }))?.reputationScore ?? 50;
    const transactionId = newId('tx');
    const refundId = execution.authorizedAgentFee > execution.agentFee ? newId('rfd') : null;
    const completing = mode.complete === true;
    const earnings = splitAgentFee(execution.agentFee).earnings;
    let charged: { hold: EscrowHoldEntity; refund: RefundEntity | null; callback: string | null } | null;
    try {
      const issue = (m: Queryable) =>
        [
          // Lost to another run: claimed() aborts the transaction, COMMIT included. A new row:
          // the reservation (a used nonce aborts it) and the finished execution.
          mode.insert
            ? allWrites([
                this.payments.insertSettled(m, payment, inlineHash!, id),
                this.insertExecution(m, Object.assign(execution, { settlementStatus: 'settled', transactionId, refundId, lockedUntil: null })),
              ])
            : completing
            ? m.query(
                `WITH c AS (
                   UPDATE executions SET status = 'completed', output = $2, execution_time_ms = $3, locked_until = NULL, completed_at = $4, agent_fee = $5,
                          usage_tokens = $6, settlement_status = 'settled', transaction_id = $7, refund_id = $8
                    WHERE id = $1 AND status = 'pending' RETURNING 1)
                 SELECT claimed(count(*), 'execution') FROM c`,
                [id, execution.output, execution.executionTimeMs, execution.completedAt, execution.agentFee.toString(), execution.usageTokens, transactionId, refundId],
              )
            : m.query(
                `WITH c AS (
                   UPDATE executions SET settlement_status = 'settled', transaction_id = $2, refund_id = $3
                    WHERE id = $1 AND status = 'completed' AND settlement_status IN ('settlement_pending', 'settlement_failed') RETURNING 1)
                 SELECT claimed(count(*), 'execution') FROM c`,
                [id, transactionId, refundId],
              ),
          mode.insert ? Promise.resolve() : inlineHash ? this.payments.settleInline(m, payment, inlineHash, id) : this.payments.bind(m, payment.id, id),
          this.outbox.record(m, 'execution.completed', execution.agentId, {
            requestId: id,
            agentId: execution.agentId,
            capabilityId: execution.capabilityId,
            executionTime: execution.executionTimeMs ?? 0,
            earnings: formatMicros(earnings),
          }),
          execution.callbackUrl
            ? this.deliveries.scheduleCallback(m, { executionId: id, url: execution.callbackUrl, body: { requestId: id, status: 'completed', output: execution.output } })
            : Promise.resolve(null),
          this.escrow.recordCharge(m, {
            transactionId,
            paymentId: execution.paymentId,
            payerWallet: execution.payer,
            requestingAgent: execution.payer,
            agentId: execution.agentId,
            agentReputation: score,
            capabilityId: execution.capabilityId,
            agentFee: execution.agentFee,
            platformFee: execution.platformFee,
            executionTimeMs: execution.executionTimeMs ?? 0,
            refund: { id: refundId ?? undefined, executionId: id, authorizedAgentFee: execution.authorizedAgentFee },
          }),
          // Last: the agent's row stays locked only until commit.
          m.query(`UPDATE agents SET execution_count = execution_count + 1 WHERE id = $1`, [execution.agentId]),
        ] as const;
      const interpret = ([claim, ...writes]: PromiseSettledResult<unknown>[]) => {
        if (claim.status === 'rejected') throw pgErrorCode(claim.reason) === PG_NOT_CLAIMED ? new NotClaimed() : claim.reason;
        const failed = writes.find((w): w is PromiseRejectedResult => w.status === 'rejected');
        if (failed) throw failed.reason;
        const value = <T>(r: PromiseSettledResult<unknown>) => (r as PromiseFulfilledResult<T>).value;
        const { hold, refund } = value<{ hold: EscrowHoldEntity; refund: RefundEntity | null }>(writes[3]);
        return { hold, refund, callback: value<string | null>(writes[2]) };
      };
      // A held charge is one round trip, COMMIT included: the hot ledger accounts and the agent's
      // row stay locked only while Postgres runs it. An instant-tier hold is released in the same
      // transaction once the posting has answered, so that one waits for the results first.
      charged =
        this.escrow.holdSeconds(score) > 0
          ? interpret(await this.tx.oneTrip(issue))
          : await this.tx.pipelined(async (m) => interpret(await Promise.allSettled(issue(m))));
    } catch (err) {
      if (!(err instanceof NotClaimed)) throw err;
      charged = null;
    }
    if (!charged) return { execution: await this.get(id), settlement: null };
    // After commit. The release job is due hours later (the sweeper covers a lost one): not awaited.
    void this.escrow.scheduleRelease(charged.hold);
    if (charged.refund) await this.refunds.enqueue(charged.refund.id);
    if (charged.callback) await this.deliveries.wake(charged.callback, 0);
    Object.assign(execution, { settlementStatus: 'settled', transactionId, refundId: charged.refund?.id ?? null, lockedUntil: null });
    return {
      execution,
      settlement: {
        txHash: payment.txHash,
        headers: this.payments.settlementHeaders(payment),
        refund: charged.refund,
      },
    };
  }

  /** For the settlement retry job: the execution a payment pays for, if any. */
  async settleByPayment(paymentId: string): Promise<string> {
    const execution = await this.dataSource.manager.findOne(ExecutionEntity, { where: { paymentId } });
    if (!execution) return (await this.payments.settle(paymentId)).status;
    return (await this.settleAndCharge(execution.id)).execution.settlementStatus ?? 'none';
  }

  /**
   * What the client pays now: the platform fee plus basePrice, or plus maxPrice (the cap) for
   * variable pricing, where the unused part is refunded once the run is metered.
   */
  private priceFor(agent: ExecutableAgent, capability: ExecutableCapability): PriceRequest & PricedRun {
    const variable = VARIABLE_PRICING_MODELS.includes(capability.pricingModel);
    const authorizedAgentFee = variable ? capability.maxPrice ?? capability.basePrice : capability.basePrice;
    return {
      pricingModel: capability.pricingModel,
      unitPrice: capability.basePrice,
      authorizedAgentFee,
      amount: PLATFORM_FEE + authorizedAgentFee,
      resource: `${this.config.publicBaseUrl}/api/v1/execute`,
      description: variable
        ? `${agent.name}: ${capability.name} (${capability.pricingModel}, up to ${formatMicros(authorizedAgentFee)} USDC; the unused part is refunded)`
        : `${agent.name}: ${capability.name}`,
    };
  }

  private async checkCallback(url: string): Promise<void> {
    const errors = await this.urlPolicy.fieldErrors({ callbackUrl: url });
    if (errors.length) throw new ValidationException(errors);
  }

  private async findIdempotent(payer: string, key: string, fingerprint: string): Promise<ExecutionEntity | null> {
    const [row] = await this.dataSource.query(
      `SELECT fingerprint, execution_id AS "executionId" FROM idempotency_keys WHERE payer = $1 AND key = $2 AND expires_at > $3`,
      [payer.toLowerCase(), key, this.clock.now()],
    );
    if (!row) return null;
    if (row.fingerprint !== fingerprint) {
      throw new AppException('IDEMPOTENCY_CONFLICT', 'This idempotencyKey was used with another agent, capability or input', { idempotencyKey: key });
    }
    return this.get(row.executionId);
  }

  /**
   * Reserves the authorization and creates the execution in one transaction, the writes in one
   * round trip (async executions, and sync ones with an idempotency key, whose row a concurrent
   * duplicate must find). A sync execution is created claimed by this request (locked_until set).
   */
  private async create(
    verified: VerifiedPayment,
    agent: ExecutableAgent,
    capability: ExecutableCapability,
    cmd: ExecuteCommand,
    fingerprint: string,
    price: PricedRun,
  ): Promise<{ execution: ExecutionEntity; payment: PaymentEntity }> {
    const lockedUntil = cmd.async ? null : this.claimUntil(this.clock.now());
    const execution = this.newExecution(verified, agent, capability, cmd, price, newId('pay'), lockedUntil);
    const payment = await this.tx.pipelined(
      async (m) => {
        const [reserved] = await allWrites([
          this.payments.reserve(verified, 'execution', m, execution.paymentId),
          this.insertExecution(m, execution),
          cmd.idempotencyKey
            ? m
                .query(
                  // A key still in force aborts the transaction; an expired one is taken over.
                  `WITH k AS (
                     INSERT INTO idempotency_keys (payer, key, fingerprint, execution_id, expires_at) VALUES ($1, $2, $3, $4, $5)
                     ON CONFLICT (payer, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, execution_id = EXCLUDED.execution_id,
                        expires_at = EXCLUDED.expires_at, created_at = now()
                     WHERE idempotency_keys.expires_at <= $6 RETURNING 1)
                   SELECT claimed(count(*), 'idempotency key') FROM k`,
                  [execution.payer, cmd.idempotencyKey, fingerprint, execution.id, new Date(this.clock.nowMs() + IDEMPOTENCY_TTL_MS), this.clock.now()],
                )
                .catch((err: unknown) => {
                  throw pgErrorCode(err) === PG_NOT_CLAIMED ? new IdempotencyRace() : err;
                })
            : Promise.resolve(),
        ]);
        return reserved;
      },
    );
    return { execution, payment };
  }

  /** A new execution, pending, as it is about to be written. */
  private newExecution(
    verified: VerifiedPayment,
    agent: ExecutableAgent,
    capability: ExecutableCapability,
    cmd: ExecuteCommand,
    price: PricedRun,
    paymentId: string,
    lockedUntil: Date | null,
  ): ExecutionEntity {
    return Object.assign(new ExecutionEntity(), {
      id: newId('req'),
      agentId: agent.id,
      capabilityId: capability.capabilityId,
      payer: verified.payer.toLowerCase(),
      input: cmd.input,
      output: null,
      status: 'pending',
      settlementStatus: null,
      agentError: null,
      executionTimeMs: null,
      retryCount: 0,
      agentFee: price.authorizedAgentFee,
      authorizedAgentFee: price.authorizedAgentFee,
      pricingModel: price.pricingModel,
      unitPrice: price.unitPrice,
      usageTokens: null,
      refundId: null,
      platformFee: PLATFORM_FEE,
      paymentId,
      transactionId: null,
      headerHash: verified.headerHash,
      isAsync: cmd.async,
      callbackUrl: cmd.callbackUrl ?? null,
      nextAttemptAt: null,
      lockedUntil,
      completedAt: null,
    });
  }

  /** How long a run may hold its claim: the agent timeout plus a minute for settling. */
  private claimUntil(now: Date): Date {
    return new Date(now.getTime() + this.config.executionTimeoutMs + 60_000);
  }

  private async enqueueRun(id: string): Promise<void> {
    await this.jobs.wake('execution.run', { executionId: id }, { jobId: jobId('execution.run', id, Date.now()) });
  }

  /** Async executions waiting for a worker (for the sweeper). */
  async dueRuns(limit = 200): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM executions WHERE status = 'pending' AND is_async AND (locked_until IS NULL OR locked_until < $1) ORDER BY created_at LIMIT $2`,
      [this.clock.now(), limit],
    );
    return rows.map((r) => r.id);
  }
}

/** The agent's answer with its fee metered; a variable-price answer that cannot be metered is a failed run. */
function metered(run: PricedRun, called: AgentCallResult): Exclude<AgentCallResult, { ok: true }> | (Extract<AgentCallResult, { ok: true }> & { agentFee: bigint; tokens: number | null }) {
  if (!called.ok) return called;
  const fee = meterAgentFee(run, { tokens: called.usage.tokens, cost: called.cost, timeMs: called.timeMs });
  return fee.ok ? { ...called, agentFee: fee.agentFee, tokens: fee.tokens } : { ok: false, status: 'failed', error: fee.error, timeMs: called.timeMs };
}

/** Rate-limit headers belong on every execute response, errors included. */
function withHeaders(err: unknown, headers: Record<string, string>): unknown {
  if (!(err instanceof AppException) || Object.keys(headers).length === 0) return err;
  return new AppException(err.code, err.message, err.details, { body: err.extra?.body, headers: { ...headers, ...(err.extra?.headers ?? {}) } });
}
