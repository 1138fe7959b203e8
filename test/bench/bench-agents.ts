/* The benches' agent registration, paid with an x402 v1 header like any client's. */
import { Wallet } from 'ethers';
import { x402V1Header } from './bench-lib';

/** Registers a bench translator (capability `translate`, 0.01 USDC) at `agentUrl`, its fee paid by `payer`; answers its id. */
export async function registerBenchAgent(
  apiUrl: string,
  agentUrl: string,
  payer: Wallet,
  usdc: string,
  payTo: string,
  name = 'Bench Translator',
): Promise<string> {
  const reg = await fetch(`${apiUrl}/api/v1/agents`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-payment': x402V1Header(payer, 100_000n, { usdc, payTo }),
    },
    body: JSON.stringify({
      wallet: payer.address,
      name,
      capabilities: [
        {
          id: 'translate',
          name: 'Translate',
          description: 'Upper-cases text',
          pricing: { model: 'per-request', basePrice: '0.01', currency: 'USDC' },
        },
      ],
      endpoints: { execution: agentUrl },
    }),
  });
  if (reg.status !== 201) throw new Error(`registration answered ${reg.status}: ${await reg.text()}`);
  return ((await reg.json()) as { data: { id: string } }).data.id;
}
