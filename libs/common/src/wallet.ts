import { isAddress } from 'ethers';
import { checksumAddress } from './keccak';

export const WALLET_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** Checksummed form of a 0x address; the canonical form stored and returned. */
export function normalizeWallet(wallet: string): string {
  return checksumAddress(wallet.toLowerCase());
}

export function isWallet(value: unknown): value is string {
  // A mixed-case address must carry a valid EIP-55 checksum; all-lower or all-upper hex has none to check.
  return typeof value === 'string' && WALLET_PATTERN.test(value) && isAddress(value);
}

export function sameWallet(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
