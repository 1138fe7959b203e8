#!/usr/bin/env node
/* npm run demo: against a running agora (AGORA_URL, default http://localhost:3000), start the example
   agent, register it (paying the 0.10 fee with x402-fetch), discover it, pay and execute; then an
   execution chain: an example orchestrator agent registered too, a budget check, a root execute
   that opens a chain with a budget (one payment for the root and the budget), the orchestrator's
   sub-call to the translator paid from it, the trace tree and the cost breakdown, and the refund
   of what was left once the worker ends the chain. Prints each step. With `npm start -- --chain` the wallets are anvil's funded demo accounts and payments
   settle on the local chain. */
const { HDNodeWallet, Mnemonic } = require('ethers');
const { wrapFetchWithPayment, decodeXPaymentResponse } = require('x402-fetch');
const { createSigner } = require('x402/types');
const { startTranslatorAgent } = require('../examples/translator-agent');
const { startOrchestratorAgent } = require('../examples/orchestrator-agent');

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

  const chained = await demoChain(registered.data.id, client);
  await agent.stop();
  if (executed.status !== 200 || !chained) process.exitCode = 1;
}

/** An orchestrator opens a chain and pays the translator from its budget; what is left comes back. */
async function demoChain(translatorId, client) {
  const orchestrator = await startOrchestratorAgent({ platformUrl: BASE });
  const owner = account(3);
  const payAsOwner = wrapFetchWithPayment(fetch, await createSigner('base-sepolia', owner.privateKey));
  const reg = await payAsOwner(`${BASE}/api/v1/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      wallet: owner.address,
      name: 'Demo Orchestrator',
      description: 'Calls other agents from its chain budget (the example orchestrator)',
      capabilities: [{ id: 'orchestrate', name: 'Orchestrate', description: 'Runs the calls it is given', pricing: { model: 'per-request', basePrice: '0.020000', currency: 'USDC' } }],
      endpoints: { execution: orchestrator.url },
    }),
  });
  const orchestratorId = (await reg.json()).data.id;
  step(6, `registered orchestrator ${orchestratorId} (example orchestrator on ${orchestrator.url})`);
  const input = { calls: [{ targetAgentId: translatorId, capabilityId: 'translate', input: { text: 'hello from a chain' } }] };
  const check = await (
    await fetch(`${BASE}/api/v1/chains/budget-check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ targetAgentId: orchestratorId, capabilityId: 'orchestrate', input, estimatedDepth: 2 }),
    })
  ).json();
  step(7, 'budget check', check.data);
  // The root costs 0.021 and opens a chain with a 0.50 budget: one payment of 0.521 (x402-fetch's default cap is 0.10).
  const payAsClient = wrapFetchWithPayment(fetch, await createSigner('base-sepolia', client.privateKey), 1_000_000n);
  const root = await payAsClient(`${BASE}/api/v1/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ targetAgentId: orchestratorId, capabilityId: 'orchestrate', input, chain: { budget: '0.50', maxDepth: 2 } }),
  });
  const rootBody = await root.json();
  step(8, `root execute with chain {budget: 0.50}: HTTP ${root.status}`, rootBody.data ?? rootBody);
  await orchestrator.stop();
  if (root.status !== 200) return false;
  const chainId = rootBody.data.chain.chainId;
  const cost = await (await fetch(`${BASE}/api/v1/chains/${chainId}/cost`)).json();
  step(9, 'chain cost', cost.data);
  // The worker ends the chain once nothing runs, and refunds what the budget has left.
  let chain;
  for (let i = 0; i < 50; i++) {
    chain = (await (await fetch(`${BASE}/api/v1/chains/${chainId}`)).json()).data;
    if (chain.refund) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  step(10, `chain ${chain.status}: trace tree, and the refund of what was left${chain.refund ? '' : ' (not yet: is the worker running?)'}`, chain);
  return Boolean(chain.refund);
}

main().catch((err) => {
  process.stderr.write(`demo failed: ${err.message}\n`);
  process.exit(1);
});
