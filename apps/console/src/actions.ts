import { useQuery } from '@tanstack/react-query';
import type { components } from '@agora/sdk';
import { ApiError } from './api';

/** A browser wallet (EIP-1193): what the console asks of it. */
export interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export type ConsoleSession = components['schemas']['ConsoleSessionResponse'];

/** The browser's wallet, or null when the page has none. */
export function browserWallet(): Eip1193 | null {
  return (window as unknown as { ethereum?: Eip1193 }).ethereum ?? null;
}

/** A JSON call to the API with the session cookie; the envelope's error becomes an ApiError. */
export async function call<T>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
    credentials: 'same-origin',
  });
  if (res.status === 204) return undefined as T;
  const json = (await res.json().catch(() => null)) as { data?: T; error?: { code: string; message: string } } | null;
  if (!res.ok)
    throw new ApiError(res.status, json?.error?.code ?? 'HTTP_ERROR', json?.error?.message ?? `HTTP ${res.status}`);
  return json!.data as T;
}

/** The session of this browser (null when signed out), shared by every signed-in view. */
export function useSession() {
  return useQuery({
    queryKey: ['console-session'],
    queryFn: () => call<ConsoleSession>('GET', '/api/v1/console/session').catch(() => null),
    retry: false,
  });
}

export function toHex(text: string): string {
  return `0x${[...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The wallet's account and its EIP-191 signature of `message` (personal_sign). */
async function sign(wallet: Eip1193, message: string): Promise<{ address: string; signature: string }> {
  const [address] = (await wallet.request({ method: 'eth_requestAccounts' })) as string[];
  const signature = (await wallet.request({ method: 'personal_sign', params: [toHex(message), address] })) as string;
  return { address, signature };
}

function needWallet(): Eip1193 {
  const wallet = browserWallet();
  if (!wallet) throw new ApiError(0, 'NO_WALLET', 'No browser wallet found: install one and reload.');
  return wallet;
}

/**
 * A change an agent's wallet signs, exactly as the API requires (never the session): the wallet signs
 * `agora-auth:<agent>:<unix_ms>:<METHOD> <path>` for this one request, sent as X-Agent-Wallet and
 * X-Agent-Signature. A declined signature throws before anything is sent.
 */
export async function agentAction<T>(agentId: string, method: string, path: string, body?: unknown): Promise<T> {
  const message = `agora-auth:${agentId}:${Date.now()}:${method} ${path}`;
  const { address, signature } = await sign(needWallet(), message);
  return call<T>(method, path, body, {
    'X-Agent-Wallet': address,
    'X-Agent-Signature': `${message}:sig:${signature}`,
  });
}

/** A payer's proof over `subject` (a transaction id to dispute): `agora-auth:<subject>:<unix_ms>`, signed. */
export async function clientProof(subject: string): Promise<Record<string, string>> {
  const message = `agora-auth:${subject}:${Date.now()}`;
  const { address, signature } = await sign(needWallet(), message);
  return { 'X-Client-Wallet': address, 'X-Client-Signature': `${message}:sig:${signature}` };
}

/** What a failed action shows: the API's code and message, or that the wallet declined. */
export function actionError(err: unknown): string {
  if ((err as { code?: number }).code === 4001) return 'The wallet declined to sign: nothing changed.';
  if (err instanceof ApiError) return `${err.code}: ${err.message}`;
  return 'Could not do this.';
}
