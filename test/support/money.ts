import { randomBytes } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { newId } from '@app/common';
import { PLATFORM_FEE, RecordCharge } from '@app/payments';

export const CLIENT_WALLET = '0x1111111111111111111111111111111111111111';

/**
 * A charged execution, as the execution flow records it: a settled x402 authorization for
 * platform fee + agent fee, then the split and escrow hold, in one transaction. Until the
 * execute endpoint exists this is how tests give agents earnings. `payerWallet` (default CLIENT_WALLET)
 * is the payment's payer and the transaction's: a wallet whose key the test holds can then dispute it.
 */
export async function seedCharge(
  app: INestApplication,
  o: { agentId: string; agentFee: bigint; reputation?: number; capabilityId?: string; payerWallet?: string },
) {
  const payer = o.payerWallet ?? CLIENT_WALLET;
  const ds = app.get(DataSource);
  const charge = app.get(RecordCharge);
  const gross = PLATFORM_FEE + o.agentFee;
  const paymentId = newId('pay');
  return ds.transaction(async (em) => {
    await em.query(
      `INSERT INTO payments (id, x402_version, network, chain_id, asset, payer, pay_to, nonce, value, valid_after, valid_before,
                             signature, header_hash, purpose, ref_id, status, tx_hash, settled_at)
       VALUES ($1, 1, 'base-sepolia', 84532, '0x036cbd53842c5426634e7929541ec2318f3dcf7e', $2, '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
               $3, $4, 0, 9999999999, '0x', 'h', 'execution', $1, 'settled', '0x', now())`,
      [paymentId, payer, `0x${randomBytes(32).toString('hex')}`, gross.toString()],
    );
    return charge.write(em, {
      paymentId,
      payerWallet: payer,
      requestingAgent: payer,
      agentId: o.agentId,
      agentReputation: o.reputation ?? 90,
      capabilityId: o.capabilityId ?? 'translate',
      agentFee: o.agentFee,
      platformFee: PLATFORM_FEE,
      executionTimeMs: 42,
    });
  });
}
