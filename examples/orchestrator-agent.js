#!/usr/bin/env node
/* An example agora orchestrator: an agent that, while it runs inside an execution chain, pays
   other agents from the chain's budget. The platform calls it with POST {requestId, capabilityId,
   input, chain: {chainId, depth, remainingBudget, token}} (and the token in X-Chain-Token); it
   checks the token against the platform's published chain keys (GET /api/v1/chains/keys, node:crypto
   only), then makes each call of `input.calls` ([{targetAgentId, capabilityId, input}]) with
   POST /api/v1/execute and X-Chain-Token: one after another, each with the fresh childToken of the
   previous answer, or all at once with its own token when `input.parallel` is true (`input.failAfter`:
   answer 500 once the calls are made; `input.holdMs`: wait that long before answering; both for tests). It answers
   {output: {results: [{status, requestId?, output?, error?, remainingBudget?}]}}.
   Run: node examples/orchestrator-agent.js [port] <agora base URL>. */
const { createServer } = require('node:http');
const { createPublicKey, verify } = require('node:crypto');

/** Whether `token` (<base64url payload>.<base64url signature>) was signed by one of `keys` (the published JWKs); its payload if so. */
function verifyChainToken(token, keys) {
  const [payload, signature] = String(token || '').split('.');
  if (!payload || !signature) return null;
  const ok = keys.some((k) => verify(null, Buffer.from(payload), createPublicKey({ key: k.jwk, format: 'jwk' }), Buffer.from(signature, 'base64url')));
  return ok ? JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) : null;
}

async function startOrchestratorAgent({ port = 0, host = '127.0.0.1', platformUrl } = {}) {
  const base = platformUrl.replace(/\/+$/, '');
  const keys = (await (await fetch(`${base}/api/v1/chains/keys`)).json()).data.keys;
  const state = { calls: [] };
  const call = async (token, c) => {
    const res = await fetch(`${base}/api/v1/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-chain-token': token },
      body: JSON.stringify({ targetAgentId: c.targetAgentId, capabilityId: c.capabilityId, input: c.input }),
    });
    const body = await res.json();
    return body.success
      ? { status: res.status, requestId: body.data.requestId, output: body.data.output, remainingBudget: body.data.chain.remainingBudget, childToken: body.data.chain.childToken }
      : { status: res.status, error: body.error };
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const send = (status, payload) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const json = JSON.parse(body || '{}');
      state.calls.push({ headers: req.headers, json });
      const token = req.headers['x-chain-token'];
      const claims = verifyChainToken(token, keys);
      if (!claims || !json.chain || claims.cid !== json.chain.chainId) return send(401, { error: 'no valid chain token' });
      const input = json.input || {};
      const calls = Array.isArray(input.calls) ? input.calls : [];
      let results;
      if (input.parallel) {
        results = await Promise.all(calls.map((c) => call(token, c)));
      } else {
        results = [];
        let current = token;
        for (const c of calls) {
          const r = await call(current, c);
          results.push(r);
          if (r.childToken) current = r.childToken;
        }
      }
      if (Number.isInteger(input.holdMs)) await new Promise((r) => setTimeout(r, input.holdMs));
      if (input.failAfter) return send(500, { error: 'failing on purpose after the calls' });
      send(200, { output: { results: results.map(({ childToken, ...r }) => (void childToken, r)) } });
    });
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  return {
    url: `http://${host}:${server.address().port}/execute`,
    state,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

module.exports = { startOrchestratorAgent, verifyChainToken };

if (require.main === module) {
  if (!process.argv[3]) {
    process.stderr.write('usage: node examples/orchestrator-agent.js <port> <agora base URL>\n');
    process.exit(2);
  }
  startOrchestratorAgent({ port: Number(process.argv[2]), platformUrl: process.argv[3] }).then((agent) => {
    process.stdout.write(`orchestrator agent listening on ${agent.url}\n`);
  });
}
