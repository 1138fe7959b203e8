import { loadConfig } from './config';

describe('loadConfig: the reserve and the reputation model', () => {
  it('reads the reputation model and the reserve as money, and ignores the retired count settings', () => {
    const c = loadConfig({
      REPUTATION_MODEL: 'spec',
      FUNDED_PAYER_MIN_SPEND_MICRO: '2500000',
      REPUTATION_UNFUNDED_PENALTY_CAP: '0',
      REPUTATION_FUNDED_PENALTY_CAP: '20',
      RESERVE_MIN_VOLUME_MICRO: '50000000',
      RESERVE_MIN_EXECUTIONS: '3',
      RESERVE_MIN_PAYERS: '2',
      RESERVE_MIN_FUNDED_PAYERS: '5',
    });
    expect(c).toMatchObject({
      reputationModel: 'spec',
      fundedPayerMinSpendMicro: 2_500_000,
      reputationUnfundedPenaltyCap: 0,
      reputationFundedPenaltyCap: 20,
      reserveMinVolumeMicro: 50_000_000,
      reserveMinFundedPayers: 5,
    });
    expect(c).not.toHaveProperty('reserveMinExecutions');
    expect(c).not.toHaveProperty('reserveMinPayers');
  });
});
