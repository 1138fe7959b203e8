import type { components } from '@agora/sdk';
import { createSiweMessage } from 'viem/siwe';
import { ApiError } from './api';

/** A browser wallet (EIP-1193): what the console asks of it. */
interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** What a session grants: reads as one agent (its wallet signs) or as the paying wallet itself. */
export type Grant = { kind: 'agent'; agentId: string } | { kind: 'wallet' };

export type ConsoleSession = components['schemas']['ConsoleSessionResponse'];

/** The browser's wallet, or null when the page has none. */
export function browserWallet(): Eip1193 | null {
  return (window as unknown as { ethereum?: Eip1193 }).ethereum ?? null;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    credentials: 'same-origin',
  });
  if (res.status === 204) return undefined as T;
  const json = (await res.json().catch(() => null)) as { data?: T; error?: { code: string; message: string } } | null;
  if (!res.ok)
    throw new ApiError(res.status, json?.error?.code ?? 'HTTP_ERROR', json?.error?.message ?? `HTTP ${res.status}`);
  return json!.data as T;
}

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

export const currentSession = () => call<ConsoleSession>('GET', '/api/v1/console/session');
export const listSessions = () => call<{ sessions: ConsoleSession[] }>('GET', '/api/v1/console/sessions');
export const revokeSession = (id: string) => call<void>('DELETE', `/api/v1/console/sessions/${id}`);

function toHex(text: string): string {
  return `0x${[...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}
