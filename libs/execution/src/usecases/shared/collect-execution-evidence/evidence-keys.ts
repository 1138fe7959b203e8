import { Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { AppConfig } from '@app/config';

const LABEL = 'agora-evidence-hash.v1';

/**
 * The keys of the hashes in a dispute's public evidence. A bare SHA-256 of an input or output can
 * be reversed by guessing (a three-word dictionary recovered a paid output), so each charge's
 * hashes are HMAC-SHA256 (of the payload's SHA-256 hex) under a key of its own, derived from the platform's signing secret and the
 * transaction id. The key is given only to the charge's two parties (the payer when it files, the
 * agent's wallet on request), who can then recompute the hashes from what they sent and received.
 */
@Injectable()
export class EvidenceKeys {
  private readonly master: Buffer;

  constructor(config: AppConfig) {
    this.master = createHmac('sha256', Buffer.from(config.platformSigningSeed, 'hex')).update(LABEL).digest();
  }

  /** The charge's evidence key (64 hex characters). */
  keyFor(transactionId: string): string {
    return createHmac('sha256', this.master).update(transactionId).digest('hex');
  }

  /** HMAC-SHA256 (hex) of a canonical JSON text under the charge's key. */
  hash(transactionId: string, canonical: string): string {
    return createHmac('sha256', Buffer.from(this.keyFor(transactionId), 'hex'))
      .update(canonical)
      .digest('hex');
  }
}
