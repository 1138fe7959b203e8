#!/usr/bin/env node
/* npm run demo: against a running agora (AGORA_URL, default http://localhost:3000), start the example
   agent, register it (paying the 0.10 fee with x402-fetch), discover it, pay and execute, and print
   each step. With `npm start -- --chain` the wallets are anvil's funded demo accounts and payments
   settle on the local chain. */
const { HDNodeWallet, Mnemonic } = require('ethers');
const { wrapFetchWithPayment, decodeXPaymentResponse } = require('x402-fetch');
const { createSigner } = require('x402/types');
const { startTranslatorAgent } = require('../examples/translator-agent');

const BASE = (process.env.AGORA_URL || 'http://localhost:3000').replace(/\/+$/, '');
const MNEMONIC = 'test test test test test test test test test test test junk';
const account = (i) => HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(MNEMONIC), `m/44'/60'/0'/0/${i}`);
const step = (n, title, data) => process.stdout.write(`\n[${n}] ${title}\n${data === undefined ? '' : JSON.stringify(data, null, 2) + '\n'}`);

async function main() {
  const health = await fetch(`${BASE}/api/v1/health`).catch(() => null);
  if (!health || !health.ok) throw new Error(`agora is not running at ${BASE} (start it with: npm start)`);

  const agent = await startTranslatorAgent({ port: Number(process.env.DEMO_AGENT_PORT || 0), platformUrl: BASE });
  step(1, `example agent listening on ${agent.url} (verifies X-Agora-Signature with ${BASE}/api/v1/platform/keys)`);

  const owner = account(1);
  const client = account(2);
  const payAsOwner = wrapFetchWithPayment(fetch, await createSigner('base-sepolia', owner.privateKey));
  const registration = await payAsOwner(`${BASE}/api/v1/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      wallet: owner.address,
      name: 'Demo Translator',
      description: 'Translates short texts (the example agent)',
      capabilities: [
        {
          id: 'translate',
          name: 'Translate text',
          description: 'Translate a short text',
          inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          outputSchema: { type: 'object', properties: { translation: { type: 'string' } }, required: ['translation'] },
          pricing: { model: 'per-request', basePrice: '0.010000', currency: 'USDC' },
        },
      ],
      endpoints: { execution: agent.url },
    }),
  });
  const registered = await registration.json();
  if (registration.status !== 201) throw new Error(`registration failed: ${JSON.stringify(registered)}`);
  step(2, `registered agent ${registered.data.id}, paid 0.10 USDC from ${owner.address}`, decodeXPaymentResponse(registration.headers.get('x-payment-response')));

  const discovered = await (await fetch(`${BASE}/api/v1/discover?capability=translate&limit=3`)).json();
  step(
    3,
    'discover ?capability=translate',
    discovered.data.agents.map((a) => ({ id: a.id, name: a.name, capabilities: a.capabilities })),
  );

  const payAsClient = wrapFetchWithPayment(fetch, await createSigner('base-sepolia', client.privateKey));
  const executed = await payAsClient(`${BASE}/api/v1/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ targetAgentId: registered.data.id, capabilityId: 'translate', input: { text: 'hello from the demo' } }),
  });
  const result = await executed.json();
  step(4, `execute (client ${client.address} pays with x402-fetch): HTTP ${executed.status}`, result);

  const balance = await (await fetch(`${BASE}/api/v1/payments/balance/${registered.data.id}`)).json();
  step(5, "the agent's balance", balance.data);

  await agent.stop();
  if (executed.status !== 200) process.exitCode = 1;
}

main().catch((err) => {
  process.stderr.write(`demo failed: ${err.message}\n`);
  process.exit(1);
});
