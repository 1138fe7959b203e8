import { DataSource } from 'typeorm';
import { FaultInjector, SystemClock } from '@app/common';
import { AppConfig } from '@app/config';
import { LocalSettlementAdapter } from './local.adapter';
import { createSettlementAdapter, SETTLEMENT_PROVIDERS } from './settlement-providers';

describe('settlement providers', () => {
  it('has one provider per SETTLEMENT_MODE', () => {
    expect(Object.keys(SETTLEMENT_PROVIDERS).sort()).toEqual(['evm', 'facilitator', 'local']);
  });

  it('builds the configured one (local: no chain, no outside call)', () => {
    const adapter = createSettlementAdapter({
      config: { settlementMode: 'local' } as AppConfig,
      dataSource: {} as DataSource,
      faults: new FaultInjector(),
      clock: new SystemClock(),
      bindSettlementHash: () => Promise.resolve(),
    });
    expect(adapter).toBeInstanceOf(LocalSettlementAdapter);
    expect(adapter.mode).toBe('local');
    expect(adapter.chainSender()).toBeNull();
  });
});
