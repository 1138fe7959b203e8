import { toUtf8Bytes } from 'ethers';
import { keccak256 } from '@app/common';
import { SettleRequest, SettlementAdapter, TransferOutcome, TransferRequest } from './settlement.adapter';

/**
 * For a machine with no chain: signatures are still verified for real (X402Service); settlement
 * is recorded in Postgres with a deterministic hash, so the same authorization always maps to
 * the same "transaction".
 */
export class LocalSettlementAdapter extends SettlementAdapter {
  readonly mode = 'local' as const;

  async preflight(): Promise<void> {}

  async settle(p: SettleRequest): Promise<{ txHash: string }> {
    return { txHash: this.inlineTxHash(p) };
  }

  override inlineTxHash(p: SettleRequest): string {
    return keccak256(
      toUtf8Bytes(`agora-local-settle:${p.chainId}:${p.asset.toLowerCase()}:${p.payer.toLowerCase()}:${p.nonce}`),
    );
  }

  async authorizationUsed(): Promise<boolean> {
    return false;
  }

  /** Local settlements are written in the same transaction as their record: nothing to recover. */
  async settlementOf(): Promise<string | null> {
    return null;
  }

  /** Nothing leaves Postgres: the payout completes with a hash derived from its id (its completion is fenced by the claim). */
  async transfer(req: TransferRequest): Promise<TransferOutcome> {
    return { kind: 'sent', txHash: keccak256(toUtf8Bytes(`agora-local-transfer:${req.payoutId}`)) };
  }
}
