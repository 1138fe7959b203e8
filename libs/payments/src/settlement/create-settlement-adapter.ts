import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { EvmSettlementAdapter } from './evm.adapter';
import { LocalSettlementAdapter } from './local.adapter';
import { SettlementAdapter } from './settlement.adapter';

/** SETTLEMENT_MODE picks the adapter; the rest of the code only sees SettlementAdapter. */
export function createSettlementAdapter(config: AppConfig, dataSource: DataSource): SettlementAdapter {
  switch (config.settlementMode) {
    case 'local':
      return new LocalSettlementAdapter();
    case 'evm':
      return new EvmSettlementAdapter(config, dataSource);
    case 'facilitator':
      throw new Error(`SETTLEMENT_MODE=${config.settlementMode} is not available in this build yet`);
  }
}
