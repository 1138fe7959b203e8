import { EntityManager } from 'typeorm';

/** What the registration request brings for the fee (the x402 payment presented, the wallet to register). */
export interface RegistrationFeeContext {
  wallet: string;
  payment: { value: string; version: 1 | 2 } | null;
  /** Absolute URL of the paid resource (x402 `resource`). */
  resource: string;
}

/**
 * A fee whose payment was written (reserved) but whose settlement's outcome this request could not
 * learn or record (Postgres lost, or the chain undecided): no agent is created; the payments domain
 * finishes it (the fee is refunded in full if it moved). Where to read it: the payer's authorization nonce,
 * or the settlement's hash once one was sent.
 */
export interface PendingRegistrationFee {
  payer: string;
  nonce: string;
  txHash: string | null;
}

/** A verified, reserved fee payment, captured inside the registration transaction. */
export interface RegistrationFeeCharge {
  /** The x402 settlement response (data; the transport renders it). */
  receipt: { x402Version: number; network: string; payer: string; transaction: string } | null;
  /** Set instead of a receipt when the fee's settlement is not known: the registration stops there. */
  pending?: PendingRegistrationFee;
}

/**
 * The one pluggable step of registration that takes the 0.10 USDC fee. `authorize` runs
 * before anything is written (and throws PAYMENT_REQUIRED / PAYMENT_INVALID / WALLET_MISMATCH);
 * `capture` runs inside the transaction that creates the agent. The payments module replaces
 * the default binding.
 */
export abstract class RegistrationFeeStep {
  abstract authorize(ctx: RegistrationFeeContext): Promise<RegistrationFeeCharge | null>;
  abstract capture(manager: EntityManager, charge: RegistrationFeeCharge | null, agentId: string): Promise<void>;
}

/** Registration without a fee, until the payments capability binds the real step. */
export class NoRegistrationFee extends RegistrationFeeStep {
  async authorize(): Promise<null> {
    return null;
  }

  async capture(): Promise<void> {}
}
