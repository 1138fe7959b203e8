import { Logger } from '@nestjs/common';
import { formatMicros } from '@app/common';

const logger = new Logger('Settlements');

/** What the settlement line names of a payment (a `payments` row). */
export interface SettledPayment {
  id: string;
  purpose: string;
  value: bigint;
  payer: string;
  network: string;
  txHash: string | null;
}

/** The one line for a settlement confirmed (inline in a charge's transaction, or after the chain or facilitator answered). */
export function logSettlementConfirmed(p: SettledPayment): void {
  const fields = {
    event: 'settlement.confirmed',
    paymentId: p.id,
    purpose: p.purpose,
    amount: formatMicros(p.value),
    payer: p.payer,
    network: p.network,
    txHash: p.txHash,
  };
  logger.log(fields, 'settlement.confirmed');
}
