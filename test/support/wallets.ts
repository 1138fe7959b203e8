import { Wallet } from 'ethers';

export function newWallet(): Wallet {
  return new Wallet(Wallet.createRandom().privateKey);
}

/** `agora-auth:<id>:<ts>:sig:<sig>` signed by `wallet` (EIP-191 personal message). */
export async function signAuth(wallet: Wallet, subjectId: string, timestampMs = Date.now()): Promise<string> {
  const message = `agora-auth:${subjectId}:${timestampMs}`;
  return `${message}:sig:${await wallet.signMessage(message)}`;
}

export async function walletHeaders(wallet: Wallet, agentId: string, timestampMs = Date.now()): Promise<Record<string, string>> {
  return { 'X-Agent-Wallet': wallet.address, 'X-Agent-Signature': await signAuth(wallet, agentId, timestampMs) };
}
