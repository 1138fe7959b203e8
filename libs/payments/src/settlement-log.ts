import { Logger } from '@nestjs/common';
import { formatMicros } from '@app/common';
import type { PaymentEntity } from './entities/payment.entity';

const logger = new Logger('Settlements');

/** The one line for a settlement confirmed (inline in a charge's transaction, or after the chain or facilitator answered). */
export function logSettlementConfirmed(p: PaymentEntity): void {
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
