import { toUtf8Bytes } from 'ethers';
import { keccak256 } from '@app/common';
import { SettleRequest, SettlementAdapter, TransferRequest } from './settlement.adapter';

/**
 * For a machine with no chain: signatures are still verified for real (X402Service); settlement
 * is recorded in Postgres with a deterministic hash, so the same authorization always maps to
 * the same "transaction".
 */
export class LocalSettlementAdapter extends SettlementAdapter {
  readonly mode = 'local' as const;

  async preflight(): Promise<void> {}

  async settle(p: SettleRequest, persist: (txHash: string) => Promise<void>): Promise<{ txHash: string }> {
    const txHash = this.inlineTxHash(p);
    await persist(txHash);
    return { txHash };
  }

  override inlineTxHash(p: SettleRequest): string {
    return keccak256(toUtf8Bytes(`agora-local-settle:${p.chainId}:${p.asset.toLowerCase()}:${p.payer.toLowerCase()}:${p.nonce}`));
  }

  async authorizationUsed(): Promise<boolean> {
    return false;
  }

  /** Local settlements are written in the same transaction as their record: nothing to recover. */
  async settlementOf(): Promise<string | null> {
    return null;
  }

  async transfer(req: TransferRequest, persist: (signedTx: string, txHash: string) => Promise<void>): Promise<{ txHash: string }> {
    const txHash = keccak256(toUtf8Bytes(`agora-local-transfer:${req.payoutId}`));
    if (!req.signedTx) await persist(`local:${req.payoutId}`, txHash);
    return { txHash };
  }
}
