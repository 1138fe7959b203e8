#!/usr/bin/env node
/* npm run demo: against a running agora (AGORA_URL, default http://localhost:3000), with the SDK
   (@agora/sdk): start the example agent, register it (paying the 0.10 fee), discover it, pay and
   execute; then an execution chain: an example orchestrator agent registered too, a budget check,
   a root execute that opens a chain with a budget (one payment for the root and the budget), the
   orchestrator's sub-call to the translator paid from it (the agent kit), the trace tree and the
   cost breakdown, a further call paid from the chain's budget with the token the root's answer
   handed back, and the refund of what was left once the chain is closed. Prints each
   step. With `npm start -- --chain` the wallets are anvil's funded demo accounts and payments
   settle on the local chain. */
const { HDNodeWallet, Mnemonic } = require('ethers');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { AgoraClient, parseAllowedAssets } = require('@agora/sdk');
const { startTranslatorAgent } = require('../examples/translator-agent');
const { startOrchestratorAgent } = require('../examples/orchestrator-agent');

const BASE = (process.env.AGORA_URL || 'http://localhost:3000').replace(/\/+$/, '');
const MNEMONIC = 'test test test test test test test test test test test junk';
const account = (i) => HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(MNEMONIC), `m/44'/60'/0'/0/${i}`);
const step = (n, title, data) =>
  process.stdout.write(`\n[${n}] ${title}\n${data === undefined ? '' : JSON.stringify(data, null, 2) + '\n'}`);
const CAPS = { perCall: '1.00', perSession: '5.00' };

/** The SDK pays USDC only; with `npm start -- --chain` the local chain's token stands in for it (its address in .tmp/chain.env). */
function allowedAssets() {
  const assets = parseAllowedAssets(process.env.AGORA_ALLOWED_ASSETS);
  try {
    const token = /^USDC_ADDRESS=(0x[0-9a-fA-F]{40})$/m.exec(
      readFileSync(join(__dirname, '..', '.tmp', 'chain.env'), 'utf8'),
    );
    if (token) Object.assign(assets, { 'eip155:84532': token[1], 'base-sepolia': token[1] });
  } catch {
    // no local chain
  }
  return assets;
}
const client = (i) =>
  new AgoraClient({ baseUrl: BASE, wallet: account(i), spendCap: CAPS, allowedAssets: allowedAssets() });

async function main() {
  const health = await fetch(`${BASE}/api/v1/health`).catch(() => null);
  if (!health || !health.ok) throw new Error(`agora is not running at ${BASE} (start it with: npm start)`);

  const agent = await startTranslatorAgent({ port: Number(process.env.DEMO_AGENT_PORT || 0), platformUrl: BASE });
  step(
    1,
    `example agent listening on ${agent.url} (verifies X-Agora-Signature with the SDK's agent kit, for its own id once registered)`,
  );

  const owner = client(1);
  const payer = client(2);
  const registered = await owner.registerAgent({
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
  });
  // The agent takes only calls the platform signed for its own id, which registering its URL gave.
  agent.serve(registered.id);
  step(2, `registered agent ${registered.id}, paid ${owner.spending.spent} USDC from ${owner.address}`);

  const discovered = await payer.discovery.discover({ capability: 'translate', limit: 3 });
  step(
    3,
    'discover ?capability=translate',
    discovered.agents.map((a) => ({ id: a.id, name: a.name, capabilities: a.capabilities.map((c) => c.id) })),
  );

  const result = await payer.execute({
    targetAgentId: registered.id,
    capabilityId: 'translate',
    input: { text: 'hello from the demo' },
  });
  const { payment: _proof, ...shown } = result;
  step(4, `execute (client ${payer.address} pays ${result.paid} USDC with x402)`, shown);

  step(5, "the agent's balance", await payer.payments.balance(registered.id));

  const chained = await demoChain(registered.id, payer);
  await agent.stop();
  if (result.status !== 'completed' || !chained) process.exitCode = 1;
}

/** An orchestrator opens a chain and pays the translator from its budget; what is left comes back. */
async function demoChain(translatorId, payer) {
  const orchestrator = await startOrchestratorAgent({ platformUrl: BASE });
  const owner = client(3);
  const reg = await owner.registerAgent({
    name: 'Demo Orchestrator',
    description: 'Calls other agents from its chain budget (the example orchestrator)',
    capabilities: [
      {
        id: 'orchestrate',
        name: 'Orchestrate',
        description: 'Runs the calls it is given',
        pricing: { model: 'per-request', basePrice: '0.020000', currency: 'USDC' },
      },
    ],
    endpoints: { execution: orchestrator.url },
  });
  orchestrator.serve(reg.id);
  step(6, `registered orchestrator ${reg.id} (example orchestrator on ${orchestrator.url})`);
  const input = {
    calls: [{ targetAgentId: translatorId, capabilityId: 'translate', input: { text: 'hello from a chain' } }],
  };
  step(
    7,
    'budget check',
    await payer.discovery.budgetCheck({ targetAgentId: reg.id, capabilityId: 'orchestrate', input, estimatedDepth: 2 }),
  );
  // The root costs 0.021 and opens a chain with a 0.50 budget: one payment of 0.521, within the per-call cap.
  const root = await payer.execute({
    targetAgentId: reg.id,
    capabilityId: 'orchestrate',
    input,
    chain: { budget: '0.50', maxDepth: 2 },
  });
  const { payment: _proof, ...shown } = root;
  step(8, `root execute with chain {budget: 0.50}: paid ${root.paid}`, shown);
  await orchestrator.stop();
  if (root.status !== 'completed') return false;
  const chainId = root.chain.chainId;
  step(9, 'chain cost', await payer.discovery.chainCost(chainId));
  // The root's answer handed the client a token of the chain: it pays more calls from the budget, no payment of their own.
  const more = await payer.execute({
    targetAgentId: translatorId,
    capabilityId: 'translate',
    input: { text: 'paid from the budget' },
    chainToken: root.chain.childToken,
  });
  step(10, `another call with the chain's token (paid from the budget, ${more.chain.remainingBudget} left)`, {
    output: more.output,
    chain: { chainId: more.chain.chainId, depth: more.chain.depth, remainingBudget: more.chain.remainingBudget },
  });
  // Done: closing the chain refunds what the budget has left at once (the worker pays it).
  const chain = await payer.closeChain(chainId, more.chain.childToken);
  step(11, `chain ${chain.status}: trace tree, and the refund of what was left${chain.refund ? '' : ' (none)'}`, chain);
  return Boolean(chain.refund);
}

main().catch((err) => {
  process.stderr.write(`demo failed: ${err.code ? `${err.code}: ` : ''}${err.message}\n`);
  process.exit(1);
});
