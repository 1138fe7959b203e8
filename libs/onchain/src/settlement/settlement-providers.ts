import { FetchRequest, JsonRpcProvider } from 'ethers';
import { DataSource } from 'typeorm';
import { Clock, FaultInjector } from '@app/common';
import { AppConfig, SettlementMode } from '@app/config';
import { TransactionRunner } from '@app/database';
import { admissionKeyPrefix, type RedisClient } from '@app/queues';
import { ChainSender } from '../chain/chain-sender';
import { ChainTxsRepository } from '../chain/chain-txs.repository';
import { BindSettlementHash, SettlementBatcher } from '../chain/settlement-batcher';
import { EvmSettlementAdapter } from './evm.adapter';
import { FacilitatorSettlementAdapter } from './facilitator.adapter';
import { LocalSettlementAdapter } from './local.adapter';
import { PayerHolds } from './payer-holds';
import { SettlementAdapter } from './settlement.adapter';

const RPC_TIMEOUT_MS = 10_000;

/** What a settlement provider is built from. `bindSettlementHash` is the payments side's (it writes `payments`). */
export interface SettlementProviderDeps {
  config: AppConfig;
  dataSource: DataSource;
  faults: FaultInjector;
  clock: Clock;
  bindSettlementHash: BindSettlementHash;
  /** Where the evm preflight holds what a payer's calls in flight spend (absent: the balance alone decides). */
  redis?: RedisClient;
}

/**
 * The settlement providers by SETTLEMENT_MODE (as Medusa's payment module keeps its providers by
 * identifier): each builds the one SettlementAdapter the rest of the code sees. A new way to move
 * money is one SettlementAdapter subclass and one entry here.
 */
export const SETTLEMENT_PROVIDERS: Record<SettlementMode, (deps: SettlementProviderDeps) => SettlementAdapter> = {
  local: () => new LocalSettlementAdapter(),
  evm: (deps) => evmAdapter(deps),
  facilitator: (deps) => {
    const { config } = deps;
    const payout = config.evmRpcUrl && config.usdcAddress && config.relayerPrivateKey ? evmAdapter(deps) : null;
    return new FacilitatorSettlementAdapter(config, payout);
  },
};

/** SETTLEMENT_MODE picks the provider; the rest of the code only sees SettlementAdapter. */
export function createSettlementAdapter(deps: SettlementProviderDeps): SettlementAdapter {
  return SETTLEMENT_PROVIDERS[deps.config.settlementMode](deps);
}

function evmAdapter({
  config,
  dataSource,
  faults,
  clock,
  bindSettlementHash,
  redis,
}: SettlementProviderDeps): EvmSettlementAdapter {
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
    clock,
    pollMs: config.evmPollMs,
    receiptTimeoutMs: config.evmReceiptTimeoutMs,
    resendAfterMs: config.evmResendAfterMs,
  });
  const batcher = new SettlementBatcher(sender, {
    token: config.usdcAddress!,
    batcher: config.settlementBatcherAddress ?? null,
    maxBatch: config.evmBatchMax,
    windowMs: config.evmBatchWindowMs,
    minBatch: config.evmBatchMin,
    bindHash: bindSettlementHash,
  });
  const holds = redis ? new PayerHolds(redis, admissionKeyPrefix(config), clock) : null;
  return new EvmSettlementAdapter(config, provider, sender, batcher, holds);
}
