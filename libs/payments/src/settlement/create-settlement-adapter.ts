import { FetchRequest, JsonRpcProvider } from 'ethers';
import { DataSource } from 'typeorm';
import { FaultInjector } from '@app/common';
import { AppConfig } from '@app/config';
import { TransactionRunner } from '@app/database';
import { ChainSender } from '../chain/chain-sender';
import { ChainTxsRepository } from '../chain/chain-txs.repository';
import { SettlementBatcher } from '../chain/settlement-batcher';
import { bindSettlementHash } from '../payments.repository';
import { EvmSettlementAdapter } from './evm.adapter';
import { FacilitatorSettlementAdapter } from './facilitator.adapter';
import { LocalSettlementAdapter } from './local.adapter';
import { SettlementAdapter } from './settlement.adapter';

const RPC_TIMEOUT_MS = 10_000;

/** SETTLEMENT_MODE picks the adapter; the rest of the code only sees SettlementAdapter. */
export function createSettlementAdapter(
  config: AppConfig,
  dataSource: DataSource,
  faults: FaultInjector,
): SettlementAdapter {
  switch (config.settlementMode) {
    case 'local':
      return new LocalSettlementAdapter();
    case 'evm':
      return evmAdapter(config, dataSource, faults);
    case 'facilitator': {
      const payout =
        config.evmRpcUrl && config.usdcAddress && config.relayerPrivateKey
          ? evmAdapter(config, dataSource, faults)
          : null;
      return new FacilitatorSettlementAdapter(config, payout);
    }
  }
}

function evmAdapter(config: AppConfig, dataSource: DataSource, faults: FaultInjector): EvmSettlementAdapter {
  // No batching delay (ethers waits 10 ms by default): calls issued in the same tick leave together in one JSON-RPC batch.
  // A node that stops answering fails a call in 10 s (ethers' default waits 300 s), so claims and leases are not outlived by one RPC.
  const rpc = new FetchRequest(config.evmRpcUrl!);
  rpc.timeout = RPC_TIMEOUT_MS;
  const provider = new JsonRpcProvider(rpc, config.evmChainId, {
    staticNetwork: true,
    cacheTimeout: -1,
    batchStallTime: 0,
  });
  const sender = new ChainSender({
    provider,
    privateKey: config.relayerPrivateKey!,
    chainId: config.evmChainId,
    transactions: new TransactionRunner(dataSource),
    repository: new ChainTxsRepository(dataSource),
    faults,
    pollMs: config.evmPollMs,
    receiptTimeoutMs: config.evmReceiptTimeoutMs,
    resendAfterMs: config.evmResendAfterMs,
  });
  const batcher = new SettlementBatcher(sender, {
    token: config.usdcAddress!,
    batcher: config.settlementBatcherAddress ?? null,
    maxBatch: config.evmBatchMax,
    bindHash: bindSettlementHash,
  });
  return new EvmSettlementAdapter(config, provider, sender, batcher);
}
