/*
 * Contract test harness: a sale to dispute (an agent, a payer, a completed execution) and the dispute calls.
 * Imports only ethers and files inside test/contract.
 */
import { Wallet } from 'ethers';
import { AgentServer } from './agent-server';
import { api, PaidReply, Reply } from './http';
import { capability, executeOk, registerAgent } from './market';
import { Marketplace } from './server';
import { agentHeaders, newWallet } from './wallets';

export interface Sale {
  agentId: string;
  /** The agent's wallet. */
  wallet: Wallet;
  payer: Wallet;
  run: PaidReply;
  /** The charge's tx_ id. */
  txId: string;
}

/**
 * A completed execution of a 2.00 capability (F 2.000000, E 1.900000, C 0.100000) by a new payer, of a new
 * agent, or of `of`'s agent when given.
 */
export async function sell(m: Marketplace, agentServer: AgentServer, of?: Sale): Promise<Sale> {
  let agentId = of?.agentId;
  const wallet = of?.wallet ?? newWallet();
  if (!agentId) {
    const pricing = { model: 'per-request', basePrice: '2.00', currency: 'USDC' };
    const a = await registerAgent(m, wallet, {
      endpoints: { execution: agentServer.url },
      capabilities: [capability({ pricing })],
    });
    agentId = a.id as string;
  }
  const payer = newWallet();
  const run = await executeOk(m, payer, { targetAgentId: agentId, capabilityId: 'echo', input: { q: 'dispute me' } });
  return { agentId, wallet, payer, run, txId: run.body.data.transactionId };
}

/** POST /api/v1/disputes with the given proof headers. */
export function file(
  m: Marketplace,
  transactionId: string,
  headers: Record<string, string>,
  body: Record<string, unknown> = { reason: 'The output was wrong' },
): Promise<Reply> {
  return api(m, 'POST', '/api/v1/disputes', { body: { transactionId, ...body }, headers });
}

/** POST /api/v1/disputes/:id/respond signed (spec's unbound form) by the sale's agent wallet. */
export async function respond(
  m: Marketplace,
  s: Sale,
  disputeId: string,
  response: string,
  extra: Record<string, unknown> = {},
): Promise<Reply> {
  return api(m, 'POST', `/api/v1/disputes/${disputeId}/respond`, {
    body: { response, ...extra },
    headers: await agentHeaders(s.wallet, s.agentId),
  });
}

/** POST /api/v1/admin/disputes/:id/resolve with the marketplace's admin key (or `key`). */
export function resolve(
  m: Marketplace,
  disputeId: string,
  body: Record<string, unknown>,
  key: string | null = m.adminKey,
): Promise<Reply> {
  return api(m, 'POST', `/api/v1/admin/disputes/${disputeId}/resolve`, {
    body,
    headers: key === null ? {} : { 'X-Admin-Key': key },
  });
}
