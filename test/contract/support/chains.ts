/*
 * Contract test harness: execution chains as the contract describes them (spec §4 "Execution chains", §2 "Chain
 * token", resolutions §5). Agents on loopback servers whose handlers make sub-calls with the chain token they
 * were given. Imports only node built-ins, ethers and files inside test/contract.
 */
import { createPublicKey, verify } from 'node:crypto';
import { Wallet } from 'ethers';
import { AgentHandler, AgentRequest, AgentServer, echo, startAgentServer } from './agent-server';
import { api, expectStatus, Reply } from './http';
import { capability, execute, registerAgent } from './market';
import { Marketplace } from './server';
import { boundAgentSignature, newWallet } from './wallets';

export interface ChainAgent {
  id: string;
  name: string;
  wallet: Wallet;
  server: AgentServer;
}

/** Registers an agent with one capability `echo` at `basePrice`, on its own loopback server. */
export async function chainAgent(m: Marketplace, basePrice: string, handler: AgentHandler = echo): Promise<ChainAgent> {
  const server = await startAgentServer(handler);
  const wallet = newWallet();
  const pricing = { model: 'per-request', basePrice, currency: 'USDC' };
  const data = await registerAgent(m, wallet, {
    capabilities: [capability({ pricing })],
    endpoints: { execution: server.url },
  });
  return { id: data.id, name: data.name, wallet, server };
}

/** PATCH the agent's chainSettings (signed in the request-bound form: the settings are not under test here). */
export async function setChainSettings(m: Marketplace, a: ChainAgent, chainSettings: Record<string, unknown>) {
  const path = `/api/v1/agents/${a.id}`;
  const headers = {
    'X-Agent-Wallet': a.wallet.address,
    'X-Agent-Signature': await boundAgentSignature(a.wallet, a.id, 'PATCH', path),
  };
  expectStatus(await api(m, 'PATCH', path, { body: { chainSettings }, headers }), 200, 'PATCH chainSettings:');
}

/** The token the platform sent with a call to an agent (X-Chain-Token, or body.chain.token). */
export function tokenOf(req: AgentRequest): string {
  return String(req.headers['x-chain-token'] ?? req.body?.chain?.token);
}

/** A chained call: POST /api/v1/execute with X-Chain-Token and no payment. */
export function subCall(m: Marketplace, token: string, target: string, input: Record<string, unknown> = {}) {
  return api(m, 'POST', '/api/v1/execute', {
    body: { targetAgentId: target, capabilityId: 'echo', input },
    headers: { 'X-Chain-Token': token },
  });
}

/** A handler that makes one sub-call to `target` with the token it got, keeps the reply, and answers its status. */
export function callsOnce(m: Marketplace, target: () => string, replies: Reply[]): AgentHandler {
  return async (req) => {
    const r = await subCall(m, tokenOf(req), target());
    replies.push(r);
    return { body: { output: { subStatus: r.status } } };
  };
}

/** A root execute that opens a chain (`chain: {budget, maxDepth}`), paid by `payer`. */
export function openChain(m: Marketplace, payer: Wallet, root: ChainAgent, chain: Record<string, unknown>) {
  return execute(m, payer, { targetAgentId: root.id, capabilityId: 'echo', input: { start: true }, chain });
}

export interface ChainTokenPayload {
  cid: string;
  d: number;
  md: number;
  rb: string;
  tb: string;
  pa: string | null;
  rw: string;
  sa: string;
  exp: number;
  [key: string]: unknown;
}

/** `<base64url-payload>.<base64url-signature>`: the payload, parsed. */
export function decodeToken(token: string): ChainTokenPayload {
  const [payload] = token.split('.');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

/** Whether one of the keys at GET /api/v1/chains/keys verifies the token (Ed25519 over the payload part). */
export async function tokenVerifies(m: Marketplace, token: string): Promise<boolean> {
  const keys = await api(m, 'GET', '/api/v1/chains/keys');
  expectStatus(keys, 200, 'chain keys:');
  const [payload, signature] = token.split('.');
  return keys.body.data.keys.some((k: { jwk: Record<string, string> }) =>
    verify(
      null,
      Buffer.from(payload, 'ascii'),
      createPublicKey({ key: k.jwk, format: 'jwk' }),
      Buffer.from(signature, 'base64url'),
    ),
  );
}

/** The same token with one payload field changed and the old signature kept. */
export function tamper(token: string, change: Partial<ChainTokenPayload>): string {
  const payload = { ...decodeToken(token), ...change };
  return `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${token.split('.')[1]}`;
}
