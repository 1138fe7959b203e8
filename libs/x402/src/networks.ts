import { AppConfig, PaymentNetwork } from '@app/config';

/** USDC per network (x402.md §2.2): all 6 decimals, EIP-712 version "2". */
export interface NetworkInfo {
  name: PaymentNetwork;
  caip2: string;
  chainId: number;
  usdc: string;
  eip712Name: string;
  /** v1 clients (x402@1.2.0) reject the whole 402 if they see a name they do not know. */
  inV1Body: boolean;
  /** Real money: a mainnet (base-sepolia is a test network). */
  mainnet: boolean;
}

export const NETWORKS: Record<PaymentNetwork, NetworkInfo> = {
  base: {
    name: 'base',
    caip2: 'eip155:8453',
    chainId: 8453,
    usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    eip712Name: 'USD Coin',
    inV1Body: true,
    mainnet: true,
  },
  'base-sepolia': {
    name: 'base-sepolia',
    caip2: 'eip155:84532',
    chainId: 84532,
    usdc: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    eip712Name: 'USDC',
    inV1Body: true,
    mainnet: false,
  },
  ethereum: {
    name: 'ethereum',
    caip2: 'eip155:1',
    chainId: 1,
    usdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    eip712Name: 'USD Coin',
    inV1Body: false,
    mainnet: true,
  },
};

/** One payment option we accept: a network and the token contract on it. */
export interface PaymentOption {
  network: NetworkInfo;
  /** Token contract (checksummed) and its EIP-712 domain name. */
  asset: string;
  assetName: string;
}

/**
 * Whether this deployment moves real money (the `livemode` of every payment, execution, withdrawal
 * and refund it answers): never in local settlement (nothing leaves Postgres); in evm mode when its
 * chain (EVM_CHAIN_ID) is a mainnet's (anvil's chain stands in for base-sepolia: test); in
 * facilitator mode when a network it accepts is a mainnet, or its withdrawals go out on one.
 */
export function isLivemode(config: AppConfig): boolean {
  const mainnetChain = Object.values(NETWORKS).some((n) => n.mainnet && n.chainId === config.evmChainId);
  switch (config.settlementMode) {
    case 'local':
      return false;
    case 'evm':
      return mainnetChain;
    case 'facilitator':
      return config.paymentNetworks.some((n) => NETWORKS[n].mainnet) || (!!config.evmRpcUrl && mainnetChain);
  }
}

/**
 * The start-up line's summary of how this process takes money: settlement mode, the networks offered (in evm
 * mode the chain too), the public base URL the 402s advertise, and livemode.
 */
export function settlementSummary(config: AppConfig): string {
  const chain = config.settlementMode === 'evm' ? ` (chain ${config.evmChainId})` : '';
  return (
    `settlement ${config.settlementMode}, networks ${config.paymentNetworks.join(',')}${chain}, ` +
    `base URL ${config.publicBaseUrl}, livemode ${isLivemode(config)}`
  );
}
