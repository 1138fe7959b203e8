import { Injectable } from '@nestjs/common';
import { allWrites, Queryable } from '@app/database';
import { Accounts, LedgerService, transfer } from '@app/ledger';
import { RefundsService } from './refunds.service';

/** What a final chain's budget leaves: the fee kept when its root ran and failed, and the rest refunded. */
export interface ChainBudgetClose {
  chainId: string;
  /** The root's payer, who gets the rest back. */
  wallet: string;
  rootExecutionId: string | null;
  /** Kept by the platform (chain:budget -> revenue); 0 for none. */
  fee: bigint;
  /** Refunded (chain:budget -> the payer's refund_payable) under `refundId`; null when nothing is left. */
  refundId: string | null;
  left: bigint;
}

/**
 * The chain budget's money, for libs/chains (which does not post): funded from the payment that
 * arrived, and at the end the fee kept and the rest refunded. Each step is issued inside the
 * caller's transaction before any await (pipeline-safe), in this order; the budget's charges are
 * RecordCharge's, with the chain as source.
 */
@Injectable()
export class ChainBudgetPostings {
  constructor(
    private readonly ledger: LedgerService,
    private readonly refunds: RefundsService,
  ) {}

  /** The chain's payment arrived: its whole value funds the budget (world:chain -> chain:budget). */
  fund(sql: Queryable, chainId: string, amount: bigint, paymentId: string): Promise<unknown> {
    return this.ledger.post(sql, {
      code: 'chain.funded',
      refId: chainId,
      legs: transfer(Accounts.worldChain(), Accounts.chainBudget(chainId), amount),
      metadata: { paymentId },
    });
  }

  /** What the budget holds (its row locked by the caller first, so nothing enters while it is read). */
  left(sql: Queryable, chainId: string): Promise<bigint> {
    return this.ledger.balance(sql, Accounts.chainBudget(chainId).code);
  }

  /** A final chain: the fee kept (`chain.root_failed`), the rest owed to the payer (`chain.closed`) and its refund opened. */
  close(sql: Queryable, c: ChainBudgetClose): Promise<unknown> {
    const kept =
      c.fee > 0n
        ? this.ledger.post(sql, {
            code: 'chain.root_failed',
            refId: c.chainId,
            legs: transfer(Accounts.chainBudget(c.chainId), Accounts.platformRevenue(), c.fee),
          })
        : Promise.resolve(null);
    if (!c.refundId) return kept;
    return allWrites([
      kept,
      this.ledger.post(sql, {
        code: 'chain.closed',
        refId: c.chainId,
        legs: transfer(Accounts.chainBudget(c.chainId), Accounts.clientRefundPayable(c.wallet), c.left),
        metadata: { refundId: c.refundId },
      }),
      this.refunds.open(sql, {
        id: c.refundId,
        wallet: c.wallet,
        amount: c.left,
        reason: 'chain_unspent',
        executionId: c.rootExecutionId,
        transactionId: null,
      }),
    ]);
  }
}
