import { loadConfig } from '@app/config';
import { isLivemode, settlementSummary } from './networks';

const KEYS = {
  PLATFORM_WALLET: '0x2222222222222222222222222222222222222222',
  PLATFORM_SIGNING_SEED: 'ab'.repeat(32),
  CHAIN_TOKEN_SEEDS: 'cd'.repeat(32),
};
const EVM = {
  ...KEYS,
  SETTLEMENT_MODE: 'evm',
  EVM_RPC_URL: 'http://127.0.0.1:8545',
  USDC_ADDRESS: KEYS.PLATFORM_WALLET,
  RELAYER_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
  PLATFORM_WALLET: '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A', // that key's address: evm mode's one hot wallet
};
const FACILITATOR = { ...KEYS, SETTLEMENT_MODE: 'facilitator', FACILITATOR_URL: 'https://facilitator.example.com' };

describe('isLivemode', () => {
  it.each([
    ['local settlement, even advertising base mainnet', { PAYMENT_NETWORKS: 'base' }, false],
    ['evm on the default chain (84532: base-sepolia, or anvil standing in for it)', EVM, false],
    ['evm on base mainnet', { ...EVM, EVM_CHAIN_ID: '8453', PAYMENT_NETWORKS: 'base' }, true],
    ['evm on ethereum mainnet', { ...EVM, EVM_CHAIN_ID: '1', PAYMENT_NETWORKS: 'ethereum' }, true],
    ['a facilitator on base-sepolia', FACILITATOR, false],
    ['a facilitator on base mainnet', { ...FACILITATOR, PAYMENT_NETWORKS: 'base' }, true],
    [
      'a facilitator on base-sepolia paying withdrawals on base mainnet',
      { ...EVM, ...FACILITATOR, EVM_CHAIN_ID: '8453' },
      true,
    ],
  ])('%s', (_label, env, expected) => {
    expect(isLivemode(loadConfig(env))).toBe(expected);
  });
});

describe('settlementSummary (the start-up line)', () => {
  it('names the mode, the networks (in evm mode the chain), the base URL and livemode', () => {
    expect(settlementSummary(loadConfig({ PORT: '4000' }))).toBe(
      'settlement local, networks base-sepolia, base URL http://localhost:4000, livemode false',
    );
    const base = loadConfig({
      ...EVM,
      EVM_CHAIN_ID: '8453',
      PAYMENT_NETWORKS: 'base',
      PUBLIC_BASE_URL: 'https://agora.example.com/',
    });
    expect(settlementSummary(base)).toBe(
      'settlement evm, networks base (chain 8453), base URL https://agora.example.com, livemode true',
    );
  });
});
