import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock, FaultInjector } from '@app/common';
import { AppConfig } from '@app/config';
import { REDIS, type RedisClient, SweepRegistry } from '@app/queues';
import { ChainNonceEntity, ChainTxEntity } from './chain/chain-tx.entity';
import { ChainTxRecovery } from './chain/chain-tx-recovery';
import { BindSettlementHash } from './chain/settlement-batcher';
import { PayoutTransfer } from './payout-transfer';
import { OpenChainTxs } from './chain/open-chain-txs';
import { createSettlementAdapter } from './settlement/settlement-providers';
import { SettlementAdapter } from './settlement/settlement.adapter';

export interface OnchainOptions {
  /** In the chain sender's transaction: gives the payments a settlement transaction carries its hash (payments owns that row). */
  bindSettlementHash: BindSettlementHash;
}

const BIND_SETTLEMENT_HASH = Symbol('BIND_SETTLEMENT_HASH');

/**
 * Sending money on a chain: the configured settlement provider (local, evm, facilitator), a
 * payout's transfer (payments claims the withdrawal or refund and hands over its values and a
 * fence), and the recovery of chain transactions (swept).
 * Registered once, by PaymentsModule, which re-exports it.
 */
@Module({})
export class OnchainModule implements OnModuleInit {
  constructor(
    private readonly sweeps: SweepRegistry,
    private readonly chainTxs: ChainTxRecovery,
  ) {}

  static register(options: OnchainOptions): DynamicModule {
    return {
      module: OnchainModule,
      imports: [TypeOrmModule.forFeature([ChainTxEntity, ChainNonceEntity])],
      providers: [
        { provide: BIND_SETTLEMENT_HASH, useValue: options.bindSettlementHash },
        {
          provide: SettlementAdapter,
          inject: [AppConfig, DataSource, FaultInjector, Clock, BIND_SETTLEMENT_HASH, REDIS],
          useFactory: (
            config: AppConfig,
            dataSource: DataSource,
            faults: FaultInjector,
            clock: Clock,
            bindSettlementHash: BindSettlementHash,
            redis: RedisClient,
          ) => createSettlementAdapter({ config, dataSource, faults, clock, bindSettlementHash, redis }),
        },
        ChainTxRecovery,
        PayoutTransfer,
        OpenChainTxs,
      ],
      exports: [SettlementAdapter, ChainTxRecovery, PayoutTransfer, OpenChainTxs],
    };
  }

  /** What the worker's sweeper collects for this domain: chain transactions to decide. */
  onModuleInit(): void {
    this.sweeps.register('chain.resend', async () =>
      (await this.chainTxs.due()).map((id) => ({ id, data: { txId: id } })),
    );
  }
}
