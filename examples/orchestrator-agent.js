#!/usr/bin/env node
/* An example agora orchestrator: an agent that, while it runs inside an execution chain, pays
   other agents from the chain's budget. The platform calls it with POST {agentId, requestId,
   capabilityId, input, chain: {chainId, depth, remainingBudget, token}} (and the token in
   X-Chain-Token); the SDK's agent kit (@agora/sdk) checks the call's X-Agora-Signature (signed for
   an agent id this server serves) and the token against the platform's published keys, then makes
   each call of `input.calls` ([{targetAgentId, capabilityId, input}]) with POST /api/v1/execute and X-Chain-Token: one after another, each with the fresh childToken of
   the previous answer, or all at once with the call's own token when `input.parallel` is true
   (`input.failAfter`: answer 500 once the calls are made; `input.holdMs`: wait that long before
   answering; both for tests). It answers
   {output: {results: [{status, requestId?, output?, error?, remainingBudget?}]}}.
   Run: node examples/orchestrator-agent.js <port> <agora base URL> <agent id...> (after `npm run
   build:sdk`; register the URL first, then start it with the id it was given). */
const { createServer } = require('node:http');
const { AgentKit, AgoraError } = require('@agora/sdk');

/**
 * Starts the orchestrator: it serves the agents `agentIds` and those added with `serve(agentId)`
 * (registering its URL is what gives an id). Resolves with {url, state, serve, stop}.
 */
async function startOrchestratorAgent({ port = 0, host = '127.0.0.1', platformUrl, agentIds = [] } = {}) {
  // One kit per agent id served here: a call is verified (and its sub-calls made) by the kit of the agent its body names.
  const kits = new Map();
  const serve = (agentId) => {
    const kit = new AgentKit({ platformUrl, agentId });
    kits.set(kit.agentId, kit);
  };
  agentIds.forEach(serve);
  const state = { calls: [] };
  const call = async (kit, agentCall, c, token) => {
    try {
      const r = await kit.subCall(agentCall, {
        targetAgentId: c.targetAgentId,
        capabilityId: c.capabilityId,
        input: c.input,
        token,
      });
      return { status: 200, requestId: r.requestId, output: r.output, remainingBudget: r.chain.remainingBudget };
    } catch (err) {
      if (!(err instanceof AgoraError)) throw err;
      return {
        status: err.status,
        error: {
          code: err.code,
          message: err.message,
          ...(Object.keys(err.details).length ? { details: err.details } : {}),
        },
      };
    }
  };
  const server = createServer((req, res) => {
    // Calls are POSTs; anything else (a HEAD from the platform's health probe) is answered and not recorded.
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const send = (status, payload) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const json = JSON.parse(body || '{}');
      state.calls.push({ headers: req.headers, json });
      const kit = kits.get(String(json.agentId || '').toLowerCase());
      if (!kit) return send(401, { error: 'not a call for an agent served here' });
      let agentCall;
      try {
        agentCall = await kit.verifyCall(req.headers, body);
      } catch {
        return send(401, { error: 'not a call from the platform for this agent' });
      }
      if (!agentCall.chain) return send(401, { error: 'no valid chain token' });
      const input = agentCall.input;
      const calls = Array.isArray(input.calls) ? input.calls : [];
      let results;
      if (input.parallel) {
        results = await Promise.all(calls.map((c) => call(kit, agentCall, c, agentCall.chain.token)));
      } else {
        results = [];
        for (const c of calls) results.push(await call(kit, agentCall, c));
      }
      if (Number.isInteger(input.holdMs)) await new Promise((r) => setTimeout(r, input.holdMs));
      if (input.failAfter) return send(500, { error: 'failing on purpose after the calls' });
      send(200, { output: { results } });
    });
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  return {
    url: `http://${host}:${server.address().port}/execute`,
    state,
    serve,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

module.exports = { startOrchestratorAgent };

if (require.main === module) {
  const [port, platformUrl, ...agentIds] = process.argv.slice(2);
  if (!platformUrl || !agentIds.length) {
    process.stderr.write('usage: node examples/orchestrator-agent.js <port> <agora base URL> <agent id...>\n');
    process.exit(2);
  }
  startOrchestratorAgent({ port: Number(port), platformUrl, agentIds }).then((agent) => {
    process.stdout.write(`orchestrator agent listening on ${agent.url}\n`);
  });
}
