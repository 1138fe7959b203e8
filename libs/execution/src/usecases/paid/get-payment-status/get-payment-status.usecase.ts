import { Injectable } from '@nestjs/common';
import { PayerRead } from '@app/auth';
import type { PayerReadProof } from '@app/auth';
import { Clock, NotFoundException, ValidationException } from '@app/common';
import { PaymentFundings } from '@app/payments';
import { ExecutionsRepository } from '../../../executions.repository';
import { IdempotencyKeysRepository } from '../../../idempotency-keys.repository';
import { InFlightRun, InFlightRuns } from '../../../admission/in-flight-runs';
import { parsePaymentRef, PaymentRecord, PaymentStatusName, paymentStatusOf } from './payment-status';

/** At most this many payments answer one reference (several payers may share a nonce or an identifier). */
export const PAYMENT_STATUS_LIMIT = 20;

/** A payment as the public status read shows it: no output, signature or header. */
export interface PaymentStatusView {
  status: PaymentStatusName;
  purpose: PaymentRecord['purpose'];
  network: string;
  chainId: number;
  asset: string;
  payer: string;
  amount: bigint;
  nonce: string;
  /** The settlement transaction: once settled (or refunded), and while pending once one was sent. */
  txHash: string | null;
  /**
   * The execution it paid for (its request id): only to the payer proven (`payer` given with its wallet's
   * signature or console session, PayerRead), and never for an execution in a chain (its read scope
   * decides). A settlement hash, a nonce and a payer are public on chain, and a request id names a run
   * to read or retry: anyone else gets null.
   */
  requestId: string | null;
  createdAt: Date;
  settledAt: Date | null;
}

/**
 * `GET /payments/status/:ref`: what became of a payment, for any client (payments.md, "Settlement
 * states"). The reference is a settlement transaction's hash, an authorization's nonce or a payment
 * identifier (an idempotency key in force); each matching payment (newest first, at most
 * PAYMENT_STATUS_LIMIT) with its status, mapped by `paymentStatusOf` from its row and the execution
 * it paid for. VALIDATION_ERROR for a malformed reference, NOT_FOUND when nothing matches.
 * The idempotency keys a payer used, and request ids, are the payer's own: a payment identifier is looked
 * up, and a request id answered, only for the payer proven (`proof`, PayerRead); for anyone else an
 * identifier names nothing (NOT_FOUND, as an unknown one) and every requestId is null.
 */
@Injectable()
export class GetPaymentStatus {
  constructor(
    private readonly payments: PaymentFundings,
    private readonly executions: ExecutionsRepository,
    private readonly keys: IdempotencyKeysRepository,
    private readonly inFlight: InFlightRuns,
    private readonly clock: Clock,
    private readonly payerRead: PayerRead,
  ) {}

  /**
   * `payer`: the paying wallet. A nonce and a payment identifier are the payer's own (another payer
   * may use the same value): without a payer a reference is only a transaction hash, and a
   * payment identifier needs one (VALIDATION_ERROR); with one, only its payments are answered.
   * `proof`: the payer's signature or console session (PayerRead.reads: a malformed or forged signature is
   * refused, 401 or 403); without a proof of `payer` the answer is the public one (no identifier, no request id).
   */
  async execute(ref: string, payer: string | null = null, proof: PayerReadProof = {}): Promise<PaymentStatusView[]> {
    const { hash, identifier } = parsePaymentRef(ref);
    if (!hash && !payer)
      throw new ValidationException([
        { field: 'payer', messages: ['payer (the paying wallet) is required with a payment identifier'] },
      ]);
    const proven = payer !== null && (await this.payerRead.reads(payer, proof));
    const keyed = proven ? await this.keys.executionOf(payer, identifier, this.clock.now()) : null;
    // A sync call with this identifier still running has written nothing yet: its in-flight claim tells.
    const running = proven && !keyed ? await this.inFlight.current(payer, identifier) : null;
    const ids = keyed ? (await this.executions.refsOf({ ids: [keyed] })).map((e) => e.paymentId) : [];
    const found = await this.payments.lookup({ hash, ids, payer }, PAYMENT_STATUS_LIMIT);
    if (found.length === 0 && !running) throw new NotFoundException('NOT_FOUND', 'Payment', ref);
    return [...(running ? [inFlightView(running, payer!)] : []), ...(await this.views(found, proven))];
  }

  private async views(found: PaymentRecord[], proven: boolean): Promise<PaymentStatusView[]> {
    const paid = found.filter((p) => p.purpose === 'execution').map((p) => p.id);
    const executions = new Map((await this.executions.refsOf({ paymentIds: paid })).map((e) => [e.paymentId, e]));
    return found.map((p) => {
      const execution = executions.get(p.id) ?? null;
      const status = paymentStatusOf(p, execution);
      const sent = status === 'settled' || status === 'refunded' || status === 'settlement_pending';
      return {
        status,
        purpose: p.purpose,
        network: p.network,
        chainId: p.chainId,
        asset: p.asset,
        payer: p.payer,
        amount: p.value,
        nonce: p.nonce,
        txHash: sent ? p.txHash : null,
        requestId: proven && execution && execution.chainId === null ? execution.id : null,
        createdAt: p.createdAt,
        settledAt: status === 'settled' || status === 'refunded' ? p.settledAt : null,
      };
    });
  }
}

/** A payment whose run is under way (authorized, nothing recorded or moved yet): `settlement_pending`, as a reserved one reads. */
function inFlightView(run: InFlightRun, payer: string): PaymentStatusView {
  const p = run.payment;
  return {
    status: 'settlement_pending',
    purpose: 'execution',
    network: p.network,
    chainId: p.chainId,
    asset: p.asset.toLowerCase(),
    payer: payer.toLowerCase(),
    amount: BigInt(p.amount),
    nonce: p.nonce,
    txHash: null,
    requestId: run.requestId,
    createdAt: new Date(p.createdAtMs),
    settledAt: null,
  };
}
