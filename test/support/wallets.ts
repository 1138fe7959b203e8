import { Wallet } from 'ethers';

export function newWallet(): Wallet {
  return new Wallet(Wallet.createRandom().privateKey);
}

/**
 * `agora-auth:<id>:<ts>[:<action>]:sig:<sig>` signed by `wallet` (EIP-191 personal message). `action`
 * is the request it is for, `"<METHOD> <path>[:<body sha256>]"` (e.g. `POST /api/v1/payments/withdraw`);
 * without it the message is the contract's unbound one (reads, and one change not preceded by a read).
 */
export async function signAuth(
  wallet: Wallet,
  subjectId: string,
  timestampMs = Date.now(),
  action?: string | null,
): Promise<string> {
  const message = `agora-auth:${subjectId}:${timestampMs}${action ? `:${action}` : ''}`;
  return `${message}:sig:${await wallet.signMessage(message)}`;
}

/** X-Agent-Wallet + X-Agent-Signature of agent `agentId`, signed for `action` (`"<METHOD> <path>"`; null: unbound). */
export async function walletHeaders(
  wallet: Wallet,
  agentId: string,
  action: string | null,
  timestampMs = Date.now(),
): Promise<Record<string, string>> {
  return {
    'X-Agent-Wallet': wallet.address,
    'X-Agent-Signature': await signAuth(wallet, agentId, timestampMs, action),
  };
}
