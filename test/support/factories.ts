import { Wallet } from 'ethers';
import { newWallet } from './wallets';
import { x402Header } from './x402';

export interface CapabilityOverrides {
  id?: string;
  name?: string;
  description?: string;
  pricing?: Record<string, unknown>;
  [k: string]: unknown;
}

export function capabilityPayload(overrides: CapabilityOverrides = {}): Record<string, unknown> {
  return {
    id: 'translate',
    name: 'Translate text',
    description: 'Translates text between English, French and Spanish',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    outputSchema: { type: 'object', properties: { translation: { type: 'string' } } },
    pricing: { model: 'per-request', basePrice: '0.010000', currency: 'USDC' },
    ...overrides,
  };
}

/** The example orchestrator's capability (examples/orchestrator-agent.js): any object in and out, 0.02 USDC unless overridden. */
export function orchestrateCapability(overrides: CapabilityOverrides = {}): Record<string, unknown> {
  return capabilityPayload({
    id: 'orchestrate',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object' },
    pricing: { model: 'per-request', basePrice: '0.020000', currency: 'USDC' },
    ...overrides,
  });
}

export function agentPayload(
  wallet: Wallet | string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    wallet: typeof wallet === 'string' ? wallet : wallet.address,
    name: 'Polyglot Translator',
    description: 'Translates documents and short texts',
    capabilities: [capabilityPayload()],
    endpoints: { execution: 'https://translator.agents.test/execute', health: 'https://translator.agents.test/health' },
    metadata: { version: '1.0.0', tags: ['nlp'] },
    ...overrides,
  };
}

export const REGISTRATION_FEE_MICROS = 100_000n;

/** Registers an agent for `wallet`, paying the 0.10 registration fee with an x402 header. */
export async function registerAgent(
  api: {
    request: (m: string, p: string, o?: any) => Promise<{ status: number; body: any; headers: Headers }>;
    config: { platformWallet: string };
  },
  wallet: Wallet,
  overrides: Record<string, unknown> = {},
  payment: { asset?: string } = {},
) {
  const pay = await x402Header(wallet, {
    amount: REGISTRATION_FEE_MICROS,
    payTo: api.config.platformWallet,
    ...payment,
  });
  return api.request('POST', '/api/v1/agents', {
    body: agentPayload(wallet, overrides),
    headers: { [pay.name]: pay.value },
  });
}

/**
 * A fresh wallet's agent at `executionUrl` with two capabilities: `translate` per request at 2.00
 * and `chat` per token (0.002, at most 0.05). Fails the test when the registration is refused.
 */
export async function registerPricedAgent(
  api: Parameters<typeof registerAgent>[0],
  executionUrl: string,
): Promise<{ id: string; wallet: Wallet }> {
  const wallet = newWallet();
  const res = await registerAgent(api, wallet, {
    endpoints: { execution: executionUrl },
    capabilities: [
      capabilityPayload({ pricing: { model: 'per-request', basePrice: '2.00', currency: 'USDC' } }),
      capabilityPayload({
        id: 'chat',
        name: 'chat',
        pricing: { model: 'per-token', basePrice: '0.002', maxPrice: '0.05', currency: 'USDC' },
      }),
    ],
  });
  if (res.status !== 201) throw new Error(`registration refused: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, wallet };
}
