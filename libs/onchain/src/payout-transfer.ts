import { Injectable } from '@nestjs/common';
import { SettlementAdapter, TransferOutcome, TransferRequest } from './settlement/settlement.adapter';

/**
 * The fence a payout hands the chain: in the transaction that persists a newly signed transfer,
 * before its broadcast, binds it to the payout and answers whether the payout is still this
 * sender's. False: nothing is sent. The owner of the payout (payments) writes it; onchain only calls it.
 */
export type PayoutFence = TransferRequest['fence'];

/** One payout's transfer as its owner hands it over: values and a fence, never its row. */
export interface PayoutTransferRequest {
  /** The withdrawal or refund this transfer pays out (local mode derives its hash from it). */
  payoutId: string;
  to: string;
  amount: bigint;
  /** The chain transaction an earlier attempt signed and persisted, if any. */
  chainTxId: string | null;
  /** A transfer signed by a version before the chain sender (stored, with no chain transaction), if any. */
  legacySignedTx: string | null;
  fence: PayoutFence;
}

/**
 * Sends money out of the platform wallet for a payout its owner has claimed. The adapter decides an
 * earlier attempt's transfer from the chain before anything new is signed, and a new transfer is
 * persisted only while the fence says the payout is still the caller's, so a sender that stalled
 * past its claim can never sign a second transfer. `fenced`: the claim was lost before anything
 * was signed. Anything else the adapter cannot decide throws, or answers `pending`.
 */
@Injectable()
export class PayoutTransfer {
  constructor(private readonly adapter: SettlementAdapter) {}

  async send(req: PayoutTransferRequest): Promise<TransferOutcome> {
    let chainTxId = req.chainTxId;
    if (chainTxId === null && req.legacySignedTx) {
      chainTxId = await this.adoptLegacy(req.legacySignedTx, req.fence);
      if (chainTxId === null) return { kind: 'fenced' };
    }
    return this.adapter.transfer({
      payoutId: req.payoutId,
      to: req.to,
      amount: req.amount,
      chainTxId,
      fence: req.fence,
    });
  }

  /**
   * A transfer signed by a version before the chain sender (its `signed_tx` stored, no
   * `chain_tx_id`) may still land: it is adopted as a persisted chain transaction and decided from
   * the chain, never signed a second time. Null: the fence refused it.
   */
  private async adoptLegacy(signedTx: string, fence: PayoutFence): Promise<string | null> {
    const sender = this.adapter.chainSender();
    if (!sender) throw new Error('a signed transfer is stored but no chain sender is configured');
    const adopted = await sender.adopt(signedTx, 'transfer', fence);
    return adopted ? adopted.id : null;
  }
}
