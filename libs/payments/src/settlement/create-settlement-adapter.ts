import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { EvmSettlementAdapter } from './evm.adapter';
import { FacilitatorSettlementAdapter } from './facilitator.adapter';
import { LocalSettlementAdapter } from './local.adapter';
import { SettlementAdapter } from './settlement.adapter';

/** SETTLEMENT_MODE picks the adapter; the rest of the code only sees SettlementAdapter. */
export function createSettlementAdapter(config: AppConfig, dataSource: DataSource): SettlementAdapter {
  switch (config.settlementMode) {
    case 'local':
      return new LocalSettlementAdapter();
    case 'evm':
      return new EvmSettlementAdapter(config, dataSource);
    case 'facilitator': {
      const payout = config.evmRpcUrl && config.usdcAddress && config.relayerPrivateKey ? new EvmSettlementAdapter(config, dataSource) : null;
      return new FacilitatorSettlementAdapter(config, payout);
    }
  }
}
