import { createHmac } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { PlatformSecrets } from '@app/auth';

/**
 * The salt of an execution's receipt (docs/receipts.md, version 3): HMAC-SHA256 of its request id under
 * a key of its own (`platform_secrets` `receipt-salt`: random, made once, shared by every process). The
 * receipt's input and output hashes are keyed with it, so nobody holding the receipt alone can confirm a
 * guessed short input or output; it is given to the payer beside the receipt (the paid answer, its own
 * reads), never to anyone else. Derived, not stored: the payer's later reads give the same salt.
 */
@Injectable()
export class ReceiptSalts implements OnModuleInit {
  private key: Buffer | null = null;

  constructor(private readonly secrets: PlatformSecrets) {}

  async onModuleInit(): Promise<void> {
    this.key = await this.secrets.get('receipt-salt');
  }

  /** The salt of the receipt of execution `requestId` (64 hex). */
  of(requestId: string): string {
    if (!this.key) throw new Error('ReceiptSalts used before its module was initialized');
    return createHmac('sha256', this.key).update(`receipt-salt:${requestId}`).digest('hex');
  }
}
