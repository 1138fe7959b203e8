import { parseAllowedAssets, toMicros } from '@agora/sdk';
import { Wallet } from 'ethers';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface Settings {
  apiUrl: string;
  /** Pay-per-call mode (`--pay-per-call` or AGORA_MCP_PAY_PER_CALL=true): clients pay each call; no wallet here. */
  payPerCall: boolean;
  /** The paying wallet; null in pay-per-call mode, which holds no key. */
  wallet: Wallet | null;
  caps: { perCall: string; perSession: string };
  /**
   * AGORA_MCP_SESSION_BUDGET (USDC): each conversation's paid calls go through one chain session,
   * its first call paying its price plus this budget, the others spending it; closed (the rest
   * refunded) when the conversation ends. Unset: every call pays its own.
   */
  sessionBudget: string | null;
  /** Tokens paid besides USDC, by network (AGORA_ALLOWED_ASSETS="eip155:84532=0x...,base-sepolia=0x..."). */
  allowedAssets: Record<string, string>;
  pins: { agentId: string; capabilityId?: string }[];
  http: { host: string; port: number; token: string | null } | null;
}

/**
 * From the environment (what desktop MCP clients pass) and flags (`--http`, `--port <n>`):
 * AGORA_URL, the wallet from AGORA_PRIVATE_KEY or the `agora` CLI's keystore (AGORA_KEYSTORE +
 * AGORA_PASSWORD), the caps AGORA_MAX_PER_CALL / AGORA_MAX_SESSION, pinned capabilities
 * AGORA_MCP_CAPABILITIES ("agentId:capabilityId,agentId" for all of an agent's), and for HTTP
 * AGORA_MCP_HOST (default 127.0.0.1) and AGORA_MCP_TOKEN (a bearer token every request must carry;
 * required unless the host is loopback). AGORA_ALLOWED_ASSETS adds payable tokens (a local chain's).
 * Pay-per-call mode (`--pay-per-call`, or AGORA_MCP_PAY_PER_CALL=true) holds no key: it refuses to
 * start when given one (AGORA_PRIVATE_KEY, AGORA_KEYSTORE or AGORA_PASSWORD) and needs no token to
 * serve HTTP off loopback (it spends nothing: each client pays its own calls).
 */
export async function loadSettings(argv: string[]): Promise<Settings> {
  // eslint-disable-next-line no-restricted-properties -- the MCP server is configured by its environment
  const env = process.env;
  const payPerCall = argv.includes('--pay-per-call') || /^(1|true|yes)$/i.test(env.AGORA_MCP_PAY_PER_CALL ?? '');
  const given = KEY_VARIABLES.filter((name) => env[name] !== undefined);
  if (payPerCall && given.length)
    throw new Error(`pay-per-call mode holds no key: unset ${given.join(', ')} (each client pays its own calls)`);
  const wallet = payPerCall ? null : await loadWallet(env);
  const pins = (env.AGORA_MCP_CAPABILITIES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [agentId, capabilityId] = s.split(':');
      return { agentId, ...(capabilityId ? { capabilityId } : {}) };
    });
  const portFlag = argv.indexOf('--port');
  const host = env.AGORA_MCP_HOST ?? '127.0.0.1';
  const loopback = ['127.0.0.1', '::1', 'localhost'].includes(host);
  // Pay-per-call spends nothing, but its sessions are few and its calls share one address's rate limits at agora.
  if (argv.includes('--http') && !loopback && !env.AGORA_MCP_TOKEN) {
    throw new Error(
      `AGORA_MCP_TOKEN is required to serve on ${host}: ${payPerCall ? 'its sessions and rate limits are shared' : 'this server spends from its wallet'}`,
    );
  }
  return {
    apiUrl: env.AGORA_URL ?? 'http://localhost:3000',
    payPerCall,
    wallet,
    caps: { perCall: env.AGORA_MAX_PER_CALL ?? '0.10', perSession: env.AGORA_MAX_SESSION ?? '1.00' },
    sessionBudget: sessionBudgetOf(env.AGORA_MCP_SESSION_BUDGET, env.AGORA_MAX_PER_CALL ?? '0.10'),
    pins,
    allowedAssets: parseAllowedAssets(env.AGORA_ALLOWED_ASSETS),
    http: argv.includes('--http')
      ? { host, port: portFlag >= 0 ? Number(argv[portFlag + 1]) : 3333, token: env.AGORA_MCP_TOKEN ?? null }
      : null,
  };
}

/** What would give this process a key (wallet mode's), refused in pay-per-call mode. */
const KEY_VARIABLES = ['AGORA_PRIVATE_KEY', 'AGORA_KEYSTORE', 'AGORA_PASSWORD'];

async function loadWallet(env: NodeJS.ProcessEnv): Promise<Wallet> {
  if (env.AGORA_PRIVATE_KEY) return new Wallet(env.AGORA_PRIVATE_KEY);
  const path = env.AGORA_KEYSTORE ?? join(homedir(), '.agora', 'keystore.json');
  const json = await readFile(path, 'utf8').catch(() => {
    throw new Error(`no wallet: set AGORA_PRIVATE_KEY, or AGORA_KEYSTORE (${path} is missing) and AGORA_PASSWORD`);
  });
  if (env.AGORA_PASSWORD === undefined) throw new Error('AGORA_PASSWORD is required to open the keystore');
  const wallet = await Wallet.fromEncryptedJson(json, env.AGORA_PASSWORD).catch(() => {
    throw new Error(`wrong AGORA_PASSWORD for ${path}`);
  });
  return new Wallet(wallet.privateKey);
}

/** AGORA_MCP_SESSION_BUDGET: a USDC amount above 0 with at most six decimals (unset or empty: no sessions). */
function sessionBudgetOf(text: string | undefined, perCall: string): string | null {
  if (!text) return null;
  if (!/^\d{1,7}(\.\d{1,6})?$/.test(text) || toMicros(text) <= 0n)
    throw new Error('AGORA_MCP_SESSION_BUDGET must be a USDC amount above 0, e.g. 0.05');
  // A session's first call pays its price plus the budget in one payment, under the per-call cap.
  if (toMicros(text) >= toMicros(perCall))
    throw new Error(
      `AGORA_MCP_SESSION_BUDGET (${text}) must be below AGORA_MAX_PER_CALL (${perCall}): a session's first call pays its price plus the budget`,
    );
  return text;
}
