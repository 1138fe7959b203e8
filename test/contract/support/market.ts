/*
 * Contract test harness: the marketplace's paid calls as a client written from the spec makes them.
 * Imports only ethers and files inside test/contract.
 */
import { Wallet } from 'ethers';
import { api, expectStatus, paid, PaidReply, Reply } from './http';
import { Marketplace } from './server';
import { Accept, agentHeaders, paymentHeader } from './wallets';

/** A valid Capability (spec §2) priced per request. */
export function capability(overrides: Record<string, unknown> = {}): Record<string, any> {
  return {
    id: 'echo',
    name: 'Echo',
    description: 'Answers with its input',
    pricing: { model: 'per-request', basePrice: '0.010000', currency: 'USDC' },
    ...overrides,
  };
}

/** No agent listens here: for agents that are registered but never executed. */
export const NOWHERE = 'http://127.0.0.1:9/execute';

/** A valid registration body (POST /api/v1/agents) for `wallet`. */
export function agentBody(wallet: Wallet, overrides: Record<string, unknown> = {}): Record<string, any> {
  return {
    wallet: wallet.address,
    name: `Contract agent ${Math.random().toString(36).slice(2, 8)}`,
    description: 'An agent registered by a contract test',
    capabilities: [capability()],
    endpoints: { execution: NOWHERE },
    metadata: { suite: 'contract' },
    ...overrides,
  };
}

/** Registers an agent, paying the 0.10 registration with its own wallet; the reply (201/200) as is. */
export function registerAgentReply(
  m: Marketplace,
  wallet: Wallet,
  overrides: Record<string, unknown> = {},
  payer: Wallet = wallet,
): Promise<PaidReply> {
  return paid(m, 'POST', '/api/v1/agents', agentBody(wallet, overrides), payer);
}

/** Registers an agent (paid by its wallet) and returns `data` of the created agent. */
export async function registerAgent(
  m: Marketplace,
  wallet: Wallet,
  overrides: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const r = await registerAgentReply(m, wallet, overrides);
  if (r.status !== 201 && r.status !== 200)
    throw new Error(`registration failed: HTTP ${r.status}: ${r.text.slice(0, 2000)}`);
  return r.body.data;
}

export interface ExecuteBody {
  targetAgentId: string;
  capabilityId: string;
  input: Record<string, unknown>;
  [key: string]: unknown;
}

/** POST /api/v1/execute paid by `payer` (402 first, then X-PAYMENT); the second reply. */
export function execute(
  m: Marketplace,
  payer: Wallet,
  body: ExecuteBody,
  opts: { headers?: Record<string, string>; path?: string } = {},
): Promise<PaidReply> {
  return paid(m, 'POST', opts.path ?? '/api/v1/execute', body, payer, { headers: opts.headers });
}

/** A completed execution (200 with status completed), or an error with the reply. */
export async function executeOk(m: Marketplace, payer: Wallet, body: ExecuteBody): Promise<PaidReply> {
  const r = await execute(m, payer, body);
  expectStatus(r, 200, 'execute:');
  if (r.body?.data?.status !== 'completed') throw new Error(`execution not completed: ${r.text.slice(0, 2000)}`);
  return r;
}

/** GET /api/v1/agents/:id `data`. */
export async function getAgent(m: Marketplace, id: string): Promise<Record<string, any>> {
  const r = await api(m, 'GET', `/api/v1/agents/${id}`);
  expectStatus(r, 200, `GET agent ${id}:`);
  return r.body.data;
}

/** PATCH /api/v1/agents/:id signed (spec form) by `wallet`. */
export async function patchAgent(m: Marketplace, wallet: Wallet, id: string, body: unknown) {
  return api(m, 'PATCH', `/api/v1/agents/${id}`, { body, headers: await agentHeaders(wallet, id) });
}

/** GET /api/v1/payments/balance/:agentId `data`. */
export async function balance(m: Marketplace, agentId: string): Promise<Record<string, any>> {
  const r = await api(m, 'GET', `/api/v1/payments/balance/${agentId}`);
  expectStatus(r, 200, 'balance:');
  return r.body.data;
}

/** What agent `id` has earned so far, escrowed (pending) or available, in micro-USDC. */
export async function earned(m: Marketplace, id: string): Promise<bigint> {
  const b = await balance(m, id);
  return micro(b.pending) + micro(b.available);
}

/** Micro-USDC of a six-decimal amount string ("1.500000" -> 1500000n); throws on any other format. */
export function micro(amount: string): bigint {
  const m = /^(\d+)\.(\d{6})$/.exec(amount);
  if (!m) throw new Error(`not a six-decimal amount string: ${JSON.stringify(amount)}`);
  return BigInt(m[1]) * 1_000_000n + BigInt(m[2]);
}

/** "1.500000" from 1500000n. */
export function usdc(microUnits: bigint): string {
  const s = microUnits.toString().padStart(7, '0');
  return `${s.slice(0, -6)}.${s.slice(-6)}`;
}

export const SIX_DECIMALS = /^\d+\.\d{6}$/;
export const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * POST /api/v1/agents as a client does it: unpaid first; when that is a 402, paid by `payer` and sent again.
 * For requests whose answer is not a success (validation, WALLET_MISMATCH): the final reply.
 */
export async function postAgent(m: Marketplace, body: unknown, payer: Wallet): Promise<Reply> {
  const first = await api(m, 'POST', '/api/v1/agents', { body });
  if (first.status !== 402) return first;
  const accept = first.body?.accepts?.[0] as Accept | undefined;
  if (!accept) return first;
  return api(m, 'POST', '/api/v1/agents', { body, headers: { 'X-PAYMENT': await paymentHeader(payer, accept) } });
}
