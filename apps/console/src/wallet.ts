import { createSiweMessage } from 'viem/siwe';
import { browserWallet, call, ConsoleSession, Eip1193, toHex } from './actions';

export type { ConsoleSession };
export { browserWallet };

/** What a session grants: reads as one agent (its wallet signs) or as the paying wallet itself. */
export type Grant = { kind: 'agent'; agentId: string } | { kind: 'wallet' };

/**
 * Signs in: the wallet's account, a nonce, an EIP-4361 message for this origin (expiring in an
 * hour at most; here 30 minutes) naming the grant, the wallet's signature (personal_sign), and the
 * session the api answers (its cookie is HTTP-only: this page never sees the token).
 */
export async function signIn(wallet: Eip1193, grant: Grant): Promise<ConsoleSession> {
  const [address] = (await wallet.request({ method: 'eth_requestAccounts' })) as string[];
  const chainId = Number.parseInt(String(await wallet.request({ method: 'eth_chainId' })), 16) || 1;
  const n = await call<{ nonce: string; domain: string; uri: string }>('POST', '/api/v1/console/nonce');
  const now = new Date();
  const message = createSiweMessage({
    domain: n.domain,
    address: address as `0x${string}`,
    statement:
      grant.kind === 'agent'
        ? 'Sign in to the agora console to read my agent.'
        : 'Sign in to the agora console to read my payments.',
    uri: n.uri,
    version: '1',
    chainId,
    nonce: n.nonce,
    issuedAt: now,
    expirationTime: new Date(now.getTime() + 30 * 60_000),
    resources: [grant.kind === 'agent' ? `agora:agent:${grant.agentId}` : 'agora:wallet'],
  });
  const signature = (await wallet.request({ method: 'personal_sign', params: [toHex(message), address] })) as string;
  return call<ConsoleSession>('POST', '/api/v1/console/sessions', { message, signature });
}

export const listSessions = () => call<{ sessions: ConsoleSession[] }>('GET', '/api/v1/console/sessions');
export const revokeSession = (id: string) => call<void>('DELETE', `/api/v1/console/sessions/${id}`);
