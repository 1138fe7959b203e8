import { Contract, HDNodeWallet, JsonRpcProvider } from 'ethers';

export interface LocalChain {
  rpcUrl: string;
  chainId: number;
  usdcAddress: string;
  /** The project's SettlementBatcher (contracts/SettlementBatcher.sol). */
  batcherAddress: string;
  provider: JsonRpcProvider;
  token: Contract;
  abi: unknown[];
  platform: HDNodeWallet;
  account(index: number): HDNodeWallet;
  mint(to: string, micros: bigint): Promise<void>;
  balanceOf(address: string): Promise<bigint>;
  stop(): Promise<void>;
}

export function startChain(opts?: { port?: number; quiet?: boolean; blockTime?: number }): Promise<LocalChain>;
export function account(index: number): HDNodeWallet;
export const CHAIN_ID: number;
export const MNEMONIC: string;
