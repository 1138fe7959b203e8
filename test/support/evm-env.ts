import type { LocalChain } from '../../scripts/local-chain';

/** Ed25519 seeds for tests that settle outside local mode, where the public development seeds are refused. */
export const TEST_SEEDS = { PLATFORM_SIGNING_SEED: '5e'.repeat(32), CHAIN_TOKEN_SEEDS: 'c7'.repeat(32) };

/** The api's settings for `evm` mode against a local chain: its token, the platform wallet relaying and receiving. */
export function evmEnv(chain: LocalChain): Record<string, string> {
  return {
    SETTLEMENT_MODE: 'evm',
    EVM_RPC_URL: chain.rpcUrl,
    USDC_ADDRESS: chain.usdcAddress,
    SETTLEMENT_BATCHER_ADDRESS: chain.batcherAddress,
    RELAYER_PRIVATE_KEY: chain.platform.privateKey,
    PLATFORM_WALLET: chain.platform.address,
    ...TEST_SEEDS,
  };
}
