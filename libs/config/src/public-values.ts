/* Values anyone can read (this repository's development defaults and samples, anvil's accounts): never for real money. */
import { computeAddress } from 'ethers';

/** Anvil's first well-known account: the payTo address outside production unless configured. */
export const DEV_PLATFORM_WALLET = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
export const DEV_SIGNING_SEED = '00'.repeat(31) + '01';
export const DEV_CHAIN_TOKEN_SEED = '00'.repeat(31) + '02';

/** Accounts 0-10 of anvil's development mnemonic (the local chain uses all eleven): their keys are public. */
const ANVIL_ACCOUNTS = new Set(
  [
    DEV_PLATFORM_WALLET,
    '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
    '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
    '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
    '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
    '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
    '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f',
    '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
    '0xBcd4042DE499D14e55001CcbB24a551F3b954096',
  ].map((a) => a.toLowerCase()),
);

/** Tokens written in this repository's samples and tests; any value starting with "change-me" counts too. */
const SAMPLE_TOKENS = new Set(['change-me-metrics-token', 'change-me-admin-key', 'test-admin-key-0123456789']);

const FIX = 'set your own (npm run init:env writes fresh secrets into .env)';

export interface PublicValueCheck {
  /** Production or a mainnet: every check. Otherwise only the seeds, and only when real money moves (not local settlement). */
  production: boolean;
  settlementMode: string;
  evmChainId: number;
  paymentNetworks: string[];
  realMoney: boolean;
  platformWallet: string;
  relayerPrivateKey?: string;
  platformSigningSeed: string;
  chainTokenSeeds: string[];
  adminApiKey?: string;
  metricsToken?: string;
}

/** One problem per setting holding a public value, each naming its variable. */
export function publicValueProblems(c: PublicValueCheck): string[] {
  const problems: string[] = [];
  const seed = (s: string) => [DEV_SIGNING_SEED, DEV_CHAIN_TOKEN_SEED].includes(s.toLowerCase());
  if (c.realMoney && seed(c.platformSigningSeed))
    problems.push(`PLATFORM_SIGNING_SEED is the public development seed: ${FIX}`);
  if (c.realMoney && c.chainTokenSeeds.some(seed))
    problems.push(`CHAIN_TOKEN_SEEDS holds the public development seed: ${FIX}`);
  // On a mainnet every check runs whatever NODE_ENV says: anvil's public keys must never hold real USDC.
  const mainnet =
    (c.settlementMode === 'evm' && [1, 8453].includes(c.evmChainId)) ||
    (c.settlementMode === 'facilitator' && c.paymentNetworks.some((n) => n !== 'base-sepolia'));
  if (!c.production && !mainnet) return problems;
  if (ANVIL_ACCOUNTS.has(c.platformWallet.toLowerCase())) {
    problems.push(
      `PLATFORM_WALLET ${c.platformWallet} is a well-known development account (its private key is public): ${FIX}`,
    );
  }
  if (c.relayerPrivateKey !== undefined && ANVIL_ACCOUNTS.has(addressOf(c.relayerPrivateKey))) {
    problems.push(`RELAYER_PRIVATE_KEY controls a well-known development account (its key is public): ${FIX}`);
  }
  const sample = (v: string | undefined) => v !== undefined && (SAMPLE_TOKENS.has(v) || /^change-?me/i.test(v));
  if (sample(c.adminApiKey)) problems.push(`ADMIN_API_KEY is a published sample value: ${FIX}`);
  if (sample(c.metricsToken)) problems.push(`METRICS_TOKEN is a published sample value: ${FIX}`);
  return problems;
}

/** A private key's address, lower case ('' for a malformed key, which config.ts names). */
function addressOf(key: string): string {
  try {
    return /^0x[0-9a-fA-F]{64}$/.test(key) ? computeAddress(key).toLowerCase() : '';
  } catch {
    return '';
  }
}
