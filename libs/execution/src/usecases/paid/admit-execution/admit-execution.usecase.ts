import { Injectable } from '@nestjs/common';
import { ExecuteTarget } from '@app/agents';
import { addressKey, AppException, Clock, newId, ValidationException } from '@app/common';
import { AppConfig } from '@app/config';
import { TransactionRunner } from '@app/database';
import { OutboundUrlPolicy } from '@app/outbound';
import { AdmitPayment } from '@app/payments';
import { ExecuteTargetCache } from '../../../admission/execute-target-cache';
import { InFlightRuns } from '../../../admission/in-flight-runs';
import { KeylessReplays } from '../../../admission/keyless-replays';
import { RateLimiter, RunClaimRequest } from '../../../admission/rate-limiter';
import { ExecutionEntity } from '../../../entities/execution.entity';
import { ExecuteCommand, ExecuteRejected, ExecuteResult } from '../../../execution.types';
import { ExecutionsRepository } from '../../../executions.repository';
import { IdempotencyKeysRepository } from '../../../idempotency-keys.repository';
import { validateValue } from '@app/json-schema';
import { ExecutionPrice, priceFor } from '@app/catalog';
import { presentsOriginalPayment } from '../../../execution-rows';
import {
  checkChainRoot,
  fingerprintOf,
  idempotencyConflict,
  idempotencyKeyOf,
  withChainBudget,
} from './admission-rules';

/** A request admitted to run: what it runs, at what price, paid by what. */
export interface Admitted {
  kind: 'admitted';
  target: ExecuteTarget;
  price: ExecutionPrice;
  funding: Awaited<ReturnType<ReturnType<AdmitPayment['execute']>['admit']>>;
  /** What its idempotency key is bound to (agent, capability, canonical input); null without a key. */
  fingerprint: string | null;
  /** The request's idempotency key: its idempotencyKey, or its payment's x402 payment identifier. */
  idempotencyKey: string | undefined;
  /** The key's in-flight claim this request holds (InFlightRuns), for the caller to give back when it ends. */
  run: RunClaimRequest | null;
  /** The id its execution takes (named in its in-flight claim). */
  requestId: string;
  limits: ExecuteResult['limits'];
}

/** A duplicate of a keyed request still running (its in-flight claim held by `heldBy`): wait, then admit again. */
export interface InFlight {
  kind: 'inFlight';
  idempotencyKey: string;
  claim: RunClaimRequest;
  heldBy: string;
  limits: ExecuteResult['limits'];
}

/** An idempotent repeat: the stored execution answers, nothing runs. */
export interface Replayed {
  kind: 'replayed';
  execution: ExecutionEntity;
  limits: ExecuteResult['limits'];
}

/**
 * Admission of an execute request (resolutions §2, §4): the target, the payment, the rate limits
 * and the nonce claim, idempotency. It owns every give-back: a request it turns away after
 * taking the nonce claim, or after counting against the agent, gives both back. Refusals come
 * as ExecuteRejected (the error and the windows it was counted in).
 *
 * The target comes from memory (confirmed by its version) or one read; the payment's signer is
 * recovered and, with the price known, its terms verified (CPU), before the one Redis round trip:
 * a verified payment counts against its payer and the agent and claims its nonce; anything else
 * counts against the caller's IP only, so unverified traffic never fills an agent's window.
 * Alongside, one pooled round trip reads the agent's version and whether the authorization is used.
 */
@Injectable()
export class AdmitExecution {
  constructor(
    private readonly targets: ExecuteTargetCache,
    private readonly payments: AdmitPayment,
    private readonly limiter: RateLimiter,
    private readonly inFlight: InFlightRuns,
    private readonly urlPolicy: OutboundUrlPolicy,
    private readonly repo: ExecutionsRepository,
    private readonly keys: IdempotencyKeysRepository,
    private readonly tx: TransactionRunner,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly keyless: KeylessReplays,
  ) {}

  async execute(cmd: ExecuteCommand, again = true): Promise<Admitted | Replayed | InFlight> {
    const remembered = this.targets.remembered(cmd.agentId, cmd.capabilityId);
    const targetRead = remembered ? null : this.targets.read(cmd.agentId, cmd.capabilityId);
    const payment = this.payments.execute(cmd.payment);
    // The idempotency key (refused later, in order, if it is wrong) and its lookup, in the same batch.
    let idempotencyKey: string | undefined;
    let keyError: unknown = null;
    try {
      idempotencyKey = idempotencyKeyOf(cmd, payment, this.config.paymentIdentifierRequired);
    } catch (err) {
      keyError = err;
    }
    const signer = payment.signer;
    const reads =
      remembered || payment.needsUsedCheck
        ? this.tx.batch(
            (sql) =>
              [
                remembered ? this.targets.version(sql, cmd.agentId) : Promise.resolve(null),
                payment.usedCheck(sql),
                idempotencyKey && signer
                  ? this.keys.find(signer, idempotencyKey, this.clock.now(), sql)
                  : Promise.resolve(null),
              ] as const,
          )
        : Promise.resolve([
            { status: 'fulfilled', value: null },
            { status: 'fulfilled', value: false },
            { status: 'fulfilled', value: null },
          ] as const);
    reads.catch(() => undefined);
    let target: ExecuteTarget | null = remembered ?? null;
    let targetError: unknown = null;
    if (targetRead) target = await targetRead.catch((err: unknown) => ((targetError = err), null));
    // The price of a target, and the payment's verification against it (once per target).
    const priceOf = (t: ExecuteTarget | null): ExecutionPrice | null => {
      const price = t
        ? withChainBudget(priceFor(t.agent, t.capability, this.config.publicBaseUrl, cmd.route), cmd.chain?.budget)
        : null;
      payment.priceAt(price);
      return price;
    };
    let priced = priceOf(target);
    const payer = payment.payer;
    // What a key is bound to (only a keyed request needs it), and the claim a keyed request (not a
    // chain root's) takes on its key while it runs, with its nonce claim.
    const fingerprint = idempotencyKey ? fingerprintOf(cmd) : null;
    const requestId = newId('req');
    const terms = payment.terms;
    const run =
      fingerprint && payer && terms && !cmd.chain
        ? this.inFlight.request(
            payer,
            idempotencyKey!,
            { fingerprint, requestId },
            { ...terms, createdAtMs: this.clock.nowMs() },
          )
        : undefined;
    const limits = await this.limiter.hit(
      payer ?? `ip:${addressKey(cmd.clientIp)}`,
      cmd.agentId,
      payment.claimRequest(),
      payer !== null,
      run,
    );
    payment.claimed(limits.claimed === true);
    const giveBack = (err: unknown) => {
      payment.giveBack(err);
      this.limiter.giveBackAgentSlot(cmd.agentId, limits.agentSlot);
      if (limits.run === 'taken') this.inFlight.release(run!);
    };
    try {
      if (limits.retryAfterS !== null)
        throw new AppException('RATE_LIMITED', 'Too many executions; retry later', { retryAfter: limits.retryAfterS });
      const [version, used, keyRow] = await reads;
      if (targetError) throw targetError;
      if (version.status === 'rejected') throw version.reason;
      if (remembered) {
        const confirmed = await this.targets.confirm(remembered, version.value, cmd.agentId, cmd.capabilityId);
        if (confirmed !== remembered) {
          // Changed since it was remembered: what was counted may not hold. Once more, afresh.
          if (again) {
            giveBack(new Error('target changed'));
            return this.execute(cmd, false);
          }
          target = confirmed;
          priced = priceOf(target);
          payment.assertClaimHeld();
        }
      }
      const { agent, capability } = target!;
      if (cmd.chain) checkChainRoot(agent.chainSettings, cmd.chain.maxDepth);
      // A capability's own resource answers an unpaid request with its 402 whatever the body, as an
      // x402 resource server does: a crawler's or client's first bare POST learns the price.
      if (cmd.route === 'capability' && cmd.payment === null) payment.check(priced!, used);
      const inputErrors = validateValue(agent.id, capability.inputSchema, cmd.input);
      if (inputErrors.length)
        throw new AppException('INPUT_SCHEMA_MISMATCH', 'input does not match the capability inputSchema', {
          errors: inputErrors,
        });
      if (cmd.callbackUrl) {
        const errors = await this.urlPolicy.fieldErrors({ callbackUrl: cmd.callbackUrl });
        if (errors.length) throw new ValidationException(errors);
      }
      const price = priced!;
      if (keyError) throw keyError;
      // Looked up before the payment is verified (scoped to its signer): a retry answers what the
      // first request did, and its own authorization is never used. The answer is the payer's, so
      // it goes only to a request that proves to be the payer's: the very payment that paid it, or
      // one that verifies now (a signed authorization seen on chain, with the id attached, does not).
      // Whether the key is taken is said only after that proof (no answer tells a stranger which keys a payer used).
      if (idempotencyKey && signer) {
        if (keyRow.status === 'rejected') throw keyRow.reason;
        const prior = keyRow.value ? await this.executionOf(keyRow.value) : null;
        if (prior) {
          if (!presentsOriginalPayment(prior.execution, cmd.payment)) payment.assertFresh(price, used);
          if (prior.fingerprint !== fingerprint) throw idempotencyConflict(idempotencyKey);
          giveBack(null);
          return { kind: 'replayed', execution: prior.execution, limits };
        }
      }
      // A keyless retry of a used authorization (its first answer lost, or unconfirmed): the same request
      // answers as the execution it paid for (KeylessReplays); any other is refused below (PAYMENT_REPLAYED).
      if (!idempotencyKey && !cmd.chain && used.status === 'fulfilled' && used.value) {
        const prior = await this.keyless.paidBy(payment, cmd);
        if (prior) {
          giveBack(null);
          return { kind: 'replayed', execution: prior, limits };
        }
      }
      payment.check(price, used);
      // Another request with this key is running: once this payment proves its payer, it waits for that one.
      const held = limits.run;
      if (held && typeof held === 'object') {
        const holder = InFlightRuns.parse(held.heldBy);
        if (holder && holder.fingerprint !== fingerprint) throw idempotencyConflict(idempotencyKey!);
        giveBack(null);
        return { kind: 'inFlight', idempotencyKey: idempotencyKey!, claim: run!, heldBy: held.heldBy, limits };
      }
      const funding = await payment.admit(used as PromiseFulfilledResult<boolean>);
      const claim = limits.run === 'taken' ? run! : null;
      return {
        kind: 'admitted',
        target: target!,
        price,
        funding,
        fingerprint,
        idempotencyKey,
        run: claim,
        requestId,
        limits,
      };
    } catch (err) {
      giveBack(err);
      throw new ExecuteRejected(err, limits);
    }
  }

  /** The execution a payer's key stands for (same fingerprint), or IDEMPOTENCY_CONFLICT, or null. */
  async idempotent(payer: string, key: string, fingerprint: string): Promise<ExecutionEntity | null> {
    const prior = await this.priorOf(payer, key);
    if (!prior) return null;
    if (prior.fingerprint !== fingerprint) throw idempotencyConflict(key);
    return prior.execution;
  }

  /** The execution a payer's key (in force) stands for, with the request's fingerprint; null: none. */
  private async priorOf(
    payer: string,
    key: string,
  ): Promise<{ fingerprint: string; execution: ExecutionEntity } | null> {
    const row = await this.keys.find(payer, key, this.clock.now());
    return row ? this.executionOf(row) : null;
  }

  /** A key's execution with the fingerprint the key was bound to (null: the execution is gone). */
  private async executionOf(row: {
    fingerprint: string;
    executionId: string;
  }): Promise<{ fingerprint: string; execution: ExecutionEntity } | null> {
    const execution = await this.repo.findById(row.executionId);
    return execution ? { fingerprint: row.fingerprint, execution } : null;
  }
}
