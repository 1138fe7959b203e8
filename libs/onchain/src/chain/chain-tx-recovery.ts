import { Injectable } from '@nestjs/common';
import { SettlementAdapter } from '../settlement/settlement.adapter';

/**
 * The sweeper's side of the chain sender: a signed transaction still undecided past its resend
 * time (its process died between persisting and broadcasting, or the node lost it) is decided
 * from the chain or broadcast again, so a persisted nonce never leaves a gap that stalls the wallet.
 */
@Injectable()
export class ChainTxRecovery {
  constructor(private readonly adapter: SettlementAdapter) {}

  async due(): Promise<string[]> {
    return (await this.adapter.chainSender()?.due()) ?? [];
  }

  async resend(txId: string): Promise<string> {
    const sender = this.adapter.chainSender();
    if (!sender) return 'skipped';
    return (await sender.resolve(txId)).state;
  }
}
