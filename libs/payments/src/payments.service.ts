import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  PG_NOT_CLAIMED,
  PG_UNIQUE_VIOLATION,
  pgConstraint,
  pgErrorCode,
  Queryable,
  queryRows,
  TransactionRunner,
} from '@app/database';
import { AppException, Clock, newId, sameWallet } from '@app/common';
import { PaymentEntity, PaymentPurpose } from './entities/payment.entity';
import { logSettlementConfirmed, SettlementAdapter, SettleRequest } from '@app/onchain';
import { X402Service } from '@app/x402';
import { paymentReplayed } from '@app/x402';
import { PresentedPayment, PriceRequest, SettlementReceipt, VerifiedPayment } from '@app/x402';

export interface AuthorizeOptions {
  purpose: PaymentPurpose;
  /** The payer must be this wallet (registration: the wallet being registered). */
  expectedPayer?: string;
}

/**
 * The life of an x402 authorization: verified and reserved before any paid work, settled
 * after it, released when the work never happened.
 */
@Injectable()
export class PaymentsService {
  constructor(
    private readonly x402: X402Service,
    private readonly adapter: SettlementAdapter,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * Checks the request's payment header against the price and reserves its nonce. Without a
   * header: PAYMENT_REQUIRED (402 with the x402 offer). A reused authorization: PAYMENT_REPLAYED.
   */
  async authorize(
    header: PresentedPayment | null,
    price: PriceRequest,
    opts: AuthorizeOptions,
  ): Promise<PaymentEntity> {
    if (!header) throw this.x402.paymentRequired(price);
    const verified = this.x402.verify(header, price);
    if (opts.expectedPayer && !sameWallet(verified.payer, opts.expectedPayer)) {
      throw new AppException('WALLET_MISMATCH', 'The payment must come from the wallet being registered', {
        payer: verified.payer,
        wallet: opts.expectedPayer,
      });
    }
    await this.adapter.preflight(verified);
    return this.reserve(verified, opts.purpose);
  }

  /** Inserts the authorization under its unique key: exactly one request can win a nonce. */
  async reserve(
    v: VerifiedPayment,
    purpose: PaymentPurpose,
    manager: Queryable = this.dataSource.manager,
    id: string = newId('pay'),
  ): Promise<PaymentEntity> {
    const payment = this.unsavedReservation(v, purpose, id);
    await this.insert(manager, payment);
    return payment;
  }

  /**
   * Inside the caller's transaction: an authorization not yet written (unsavedReservation),
   * recorded already settled by an inline settlement (hash from inlineSettlement) and linked to
   * what it paid for, in one insert: the sync execute path writes its payment only once the
   * agent has answered.
   */
  async insertSettled(
    manager: Queryable,
    payment: PaymentEntity,
    txHash: string,
    refId: string,
  ): Promise<PaymentEntity> {
    Object.assign(payment, {
      status: 'settled',
      txHash,
      settledAt: this.clock.now(),
      refId,
      settleAttempts: payment.settleAttempts + 1,
    });
    await this.insert(manager, payment);
    logSettlementConfirmed(payment);
    return payment;
  }

  /**
   * A plain insert: a nonce already in `payments` violates the unique index, which aborts the
   * statement and the transaction (so this also holds with the COMMIT sent together with it)
   * and answers PAYMENT_REPLAYED.
   */
  async insert(manager: Queryable, p: PaymentEntity): Promise<void> {
    try {
      await manager.query(
        `INSERT INTO payments (id, x402_version, network, chain_id, asset, payer, pay_to, nonce, value, valid_after, valid_before,
                               signature, header_hash, purpose, status, tx_hash, settled_at, settle_attempts, ref_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
        [
          p.id,
          p.x402Version,
          p.network,
          p.chainId,
          p.asset,
          p.payer,
          p.payTo,
          p.nonce,
          p.value.toString(),
          p.validAfter.toString(),
          p.validBefore.toString(),
          p.signature,
          p.headerHash,
          p.purpose,
          p.status,
          p.txHash,
          p.settledAt,
          p.settleAttempts,
          p.refId,
        ],
      );
    } catch (err) {
      if (pgErrorCode(err) === PG_UNIQUE_VIOLATION && pgConstraint(err) === 'ux_payments_authorization')
        throw paymentReplayed();
      throw err;
    }
  }

  /** The row `reserve` writes, as an entity (for a flow that writes it later, in its own transaction). */
  unsavedReservation(v: VerifiedPayment, purpose: PaymentPurpose, id: string): PaymentEntity {
    return Object.assign(new PaymentEntity(), {
      id,
      x402Version: v.x402Version,
      network: v.network,
      chainId: v.chainId,
      asset: v.asset.toLowerCase(),
      payer: v.payer.toLowerCase(),
      payTo: v.payTo.toLowerCase(),
      nonce: v.nonce,
      value: v.value,
      validAfter: v.validAfter,
      validBefore: v.validBefore,
      signature: v.signature,
      headerHash: v.headerHash,
      purpose,
      refId: null,
      status: 'reserved',
      txHash: null,
      settleAttempts: 0,
      nextAttemptAt: null,
      lastError: null,
      settledAt: null,
    });
  }

  /** Whether an authorization (by its nonce) is already in `payments`, whatever its state (on `sql`, or a pooled connection). */
  async authorizationUsed(
    a: { chainId: number; asset: string; payer: string; nonce: string },
    sql: Queryable = this.tx.pooled,
  ): Promise<boolean> {
    const [row] = (await sql.query(
      `SELECT EXISTS (SELECT 1 FROM payments WHERE chain_id = $1 AND asset = $2 AND payer = $3 AND nonce = $4) AS used`,
      [a.chainId, a.asset.toLowerCase(), a.payer.toLowerCase(), a.nonce.toLowerCase()],
    )) as { used: boolean }[];
    return row.used;
  }

  get(id: string, manager: EntityManager = this.dataSource.manager): Promise<PaymentEntity | null> {
    return manager.findOne(PaymentEntity, { where: { id } });
  }

  /** The hash of a settlement that can be recorded inside the charge's transaction (local mode), or null. */
  inlineSettlement(payment: PaymentEntity): string | null {
    return payment.status === 'settled' ? null : this.adapter.inlineTxHash(toSettleRequest(payment));
  }

  /**
   * Inside the caller's transaction: records an inline settlement (hash from inlineSettlement)
   * and links the payment to what it paid for. Throws if the payment was not open for settlement.
   */
  async settleInline(
    manager: Queryable,
    payment: PaymentEntity,
    txHash: string,
    refId: string,
  ): Promise<PaymentEntity> {
    const settledAt = this.clock.now();
    // Checked in SQL (claimed), so a COMMIT sent with this statement cannot commit without it.
    try {
      await manager.query(
        `WITH p AS (
           UPDATE payments SET status = 'settled', tx_hash = $2, settled_at = $3, settle_attempts = settle_attempts + 1, next_attempt_at = NULL,
                  last_error = NULL, ref_id = $4 WHERE id = $1 AND status IN ('reserved', 'settlement_failed') RETURNING 1)
         SELECT claimed(count(*), 'payment settlement') FROM p`,
        [payment.id, txHash, settledAt, refId],
      );
    } catch (err) {
      if (pgErrorCode(err) !== PG_NOT_CLAIMED) throw err;
      throw new AppException('INVALID_STATE', `Payment ${payment.id} is not open for settlement`);
    }
    Object.assign(payment, {
      status: 'settled',
      txHash,
      settledAt,
      refId,
      settleAttempts: payment.settleAttempts + 1,
      nextAttemptAt: null,
      lastError: null,
    });
    logSettlementConfirmed(payment);
    return payment;
  }

  /** Gives back a reservation whose paid work never happened: nothing was charged. */
  async release(paymentId: string): Promise<void> {
    await this.dataSource.query(`UPDATE payments SET status = 'released' WHERE id = $1 AND status = 'reserved'`, [
      paymentId,
    ]);
  }

  /** Links a settled payment to what it paid for, inside the caller's transaction. */
  async bind(manager: Queryable, paymentId: string, refId: string): Promise<void> {
    await manager.query(`UPDATE payments SET ref_id = $2 WHERE id = $1`, [paymentId, refId]);
  }

  /** Binds a payment that nothing else has bound yet; false if something (a recovery's refund) already has. */
  async bindUnbound(manager: Queryable, paymentId: string, refId: string): Promise<boolean> {
    return (
      (
        await queryRows(manager, `UPDATE payments SET ref_id = $2 WHERE id = $1 AND ref_id IS NULL RETURNING id`, [
          paymentId,
          refId,
        ])
      ).length === 1
    );
  }

  receipt(payment: PaymentEntity): SettlementReceipt {
    return X402Service.receipt(payment, payment.txHash ?? '');
  }
}

/** In the chain sender's transaction: the payments a settlement transaction carries get its hash before it is broadcast. */
export function bindSettlementHash(sql: Queryable, paymentIds: string[], txHash: string): Promise<unknown> {
  return sql.query(`UPDATE payments SET tx_hash = $2 WHERE id = ANY($1::varchar[]) AND status = 'settling'`, [
    paymentIds,
    txHash,
  ]);
}

export function toSettleRequest(p: PaymentEntity): SettleRequest {
  return {
    paymentId: p.id,
    x402Version: p.x402Version,
    network: p.network,
    chainId: p.chainId,
    asset: p.asset,
    payer: p.payer,
    payTo: p.payTo,
    value: p.value,
    validAfter: p.validAfter,
    validBefore: p.validBefore,
    nonce: p.nonce,
    signature: p.signature,
    txHash: p.txHash,
  };
}
