import { DEV_PLATFORM_WALLET, loadConfig } from './config';

describe('loadConfig', () => {
  describe('public values outside development', () => {
    const own = {
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: 'https://agora.example.com',
      PLATFORM_WALLET: '0x1111111111111111111111111111111111111111',
      PLATFORM_SIGNING_SEED: 'ab'.repeat(32),
      CHAIN_TOKEN_SEEDS: 'cd'.repeat(32),
      ADMIN_API_KEY: 'an-admin-key-of-its-own',
      METRICS_TOKEN: 'a-metrics-token-of-its-own',
    };
    const devSeed = (n: number) => '00'.repeat(31) + `0${n}`;

    it('accepts values of its own in production', () => {
      expect(loadConfig(own)).toMatchObject({ nodeEnv: 'production', platformSigningSeed: 'ab'.repeat(32) });
    });

    it.each([
      [{ PLATFORM_SIGNING_SEED: devSeed(1) }, 'PLATFORM_SIGNING_SEED is the public development seed'],
      [
        { CHAIN_TOKEN_SEEDS: `${'cd'.repeat(32)},${devSeed(2)}` },
        'CHAIN_TOKEN_SEEDS holds the public development seed',
      ],
      [
        { PLATFORM_WALLET: DEV_PLATFORM_WALLET },
        `PLATFORM_WALLET ${DEV_PLATFORM_WALLET} is a well-known development account`,
      ],
      [
        { PLATFORM_WALLET: '0xa0ee7a142d267c1f36714e4a8f75612f20a79720' },
        'PLATFORM_WALLET 0xa0ee7a142d267c1f36714e4a8f75612f20a79720 is a well-known',
      ],
      [
        { RELAYER_PRIVATE_KEY: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' },
        'RELAYER_PRIVATE_KEY controls a well-known development account',
      ],
      [{ METRICS_TOKEN: 'change-me-metrics-token' }, 'METRICS_TOKEN is a published sample value'],
      [{ ADMIN_API_KEY: 'change-me-admin-key' }, 'ADMIN_API_KEY is a published sample value'],
    ])('production refuses %j, naming the variable', (override, message) => {
      expect(() => loadConfig({ ...own, ...override })).toThrow(message);
      expect(() => loadConfig({ ...own, ...override })).toThrow(/npm run init:env/);
    });

    it('production with no secrets names each missing one', () => {
      expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
        /PLATFORM_WALLET is required[\s\S]*PLATFORM_SIGNING_SEED is required[\s\S]*CHAIN_TOKEN_SEEDS must be/,
      );
    });

    it('outside local settlement the public seeds are refused in development too; the local chain keeps anvil accounts', () => {
      const evm = {
        SETTLEMENT_MODE: 'facilitator',
        FACILITATOR_URL: 'http://127.0.0.1:9',
        PLATFORM_WALLET: DEV_PLATFORM_WALLET,
      };
      expect(() =>
        loadConfig({ ...evm, PLATFORM_SIGNING_SEED: devSeed(1), CHAIN_TOKEN_SEEDS: 'cd'.repeat(32) }),
      ).toThrow('PLATFORM_SIGNING_SEED is the public');
      expect(() =>
        loadConfig({ ...evm, PLATFORM_SIGNING_SEED: 'ab'.repeat(32), CHAIN_TOKEN_SEEDS: devSeed(2) }),
      ).toThrow('CHAIN_TOKEN_SEEDS holds the public');
      expect(
        loadConfig({
          ...evm,
          PLATFORM_SIGNING_SEED: 'ab'.repeat(32),
          CHAIN_TOKEN_SEEDS: 'cd'.repeat(32),
          METRICS_TOKEN: 'change-me-metrics-token',
        }).platformWallet,
      ).toBe(DEV_PLATFORM_WALLET);
    });
  });
});
