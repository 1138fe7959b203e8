import type { LocalChain } from '../../scripts/local-chain';

/** The api's settings for `evm` mode against a local chain: its token, the platform wallet relaying and receiving. */
export function evmEnv(chain: LocalChain): Record<string, string> {
  return {
    SETTLEMENT_MODE: 'evm',
    EVM_RPC_URL: chain.rpcUrl,
    USDC_ADDRESS: chain.usdcAddress,
    SETTLEMENT_BATCHER_ADDRESS: chain.batcherAddress,
    RELAYER_PRIVATE_KEY: chain.platform.privateKey,
    PLATFORM_WALLET: chain.platform.address,
  };
}
