import { Injectable } from '@nestjs/common';
import { PaymentRecord, PaymentsRepository } from '../../payments.repository';

export type { PaymentRecord };

/**
 * What names the payments to find: a lower-case 0x hash (a settlement transaction's, or, with a
 * payer, an authorization's nonce) and payment ids (with a payer: theirs only).
 */
export interface PaymentLookup {
  hash: string | null;
  ids: string[];
  /** The paying wallet: a nonce or an identifier is the payer's own, and only its payments are answered. */
  payer: string | null;
}

/**
 * The payments a public reference names (the payment status read): those whose settlement
 * transaction or authorization nonce is `hash`, and those of `ids`; newest first, at most `limit`.
 * Several payers may share a nonce, so a hash may name several.
 */
@Injectable()
export class FindPayments {
  constructor(private readonly payments: PaymentsRepository) {}

  async execute(lookup: PaymentLookup, limit: number): Promise<PaymentRecord[]> {
    if (lookup.hash === null && lookup.ids.length === 0) return [];
    return this.payments.matching(lookup.hash, lookup.ids, lookup.payer, limit);
  }
}
