#!/usr/bin/env node
/* An example agora agent: a tiny "translator" that upper-cases text. It shows what an agent
   does: receive POST {agentId, requestId, capabilityId, input}, check X-Agora-Signature with the
   SDK's agent kit (@agora/sdk: the platform's keys from GET /api/v1/platform/keys; the call must be
   signed for an agent id this server was told it serves), answer 2xx {output}.
   It reports `usage.tokens` (input.tokens, or the text's length) and, when input.cost is given,
   `cost` (for dynamic pricing); input.delayMs delays the answer (per-minute pricing).
   `input.mode` scripts failures for tests: fail (500), refuse (400: it turns the request down), slow (answers after 2 s), bad-output,
   nul-output and nul-error (text Postgres cannot store),
   not-json, no-usage. Run: node examples/translator-agent.js [port] [agora base URL] [agent id...]
   (after `npm run build:sdk`; register the URL first, then start it with the id it was given). */
const { createServer } = require('node:http');
const { AgentKit } = require('@agora/sdk');

/**
 * Starts the agent. `platformUrl`, when given, makes it refuse every call that is not the
 * platform's signed call to one of the agents it serves: `agentIds`, and those added with
 * `serve(agentId)` (registering the URL is what gives an id). Resolves with {url, state, serve, stop}.
 */
async function startTranslatorAgent({
  port = 0,
  host = '127.0.0.1',
  platformUrl = null,
  agentIds = [],
  defaultMode = 'ok',
  keepCalls = true,
} = {}) {
  // One kit per agent id served here: a call is verified by the kit of the agent its body names.
  const kits = new Map();
  const serve = (agentId) => {
    if (!platformUrl) throw new Error('serve(agentId) needs platformUrl: without it the agent checks no signature');
    const kit = new AgentKit({ platformUrl, agentId });
    kits.set(kit.agentId, kit);
  };
  agentIds.forEach(serve);
  const state = { defaultMode, calls: [] };
  const server = createServer((req, res) => {
    // Calls are POSTs; anything else (a HEAD from the platform's health probe) is answered and not recorded.
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const send = (status, payload) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
      };
      let json;
      try {
        json = JSON.parse(body || '{}');
      } catch {
        return send(400, { error: 'body is not JSON' });
      }
      if (keepCalls) state.calls.push({ headers: req.headers, body, json });
      if (platformUrl) {
        const kit = kits.get(String(json.agentId || '').toLowerCase());
        if (!kit) return send(401, { error: 'not a call for an agent served here' });
        try {
          await kit.verifyCall(req.headers, body);
        } catch {
          return send(401, { error: 'not signed by the platform for this agent' });
        }
      }
      const mode = (json.input && json.input.mode) || state.defaultMode;
      if (mode === 'fail') return send(500, { error: 'model crashed' });
      if (mode === 'refuse') return send(400, { error: 'this request is not one I take' });
      if (mode === 'slow') return void setTimeout(() => send(200, { output: { translation: 'late' } }), 2000);
      if (mode === 'bad-output') return send(200, { output: { translation: 42 } });
      if (mode === 'not-json') return send(200, 'hello');
      if (mode === 'nul-output') return send(200, { output: { translation: 'a\u0000b' } });
      if (mode === 'nul-error') return send(500, 'broke \u0000 here');
      const input = json.input || {};
      const text = String(input.text || '');
      // usage.tokens and cost are what variable pricing meters: tokens (per-token) and cost (dynamic).
      const answer = { output: { translation: text.toUpperCase() } };
      if (mode !== 'no-usage') answer.usage = { tokens: Number.isInteger(input.tokens) ? input.tokens : text.length };
      if (typeof input.cost === 'string') answer.cost = input.cost;
      if (Number.isInteger(input.delayMs)) return void setTimeout(() => send(200, answer), input.delayMs);
      send(200, answer);
    });
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  const url = `http://${host}:${server.address().port}/execute`;
  return {
    url,
    state,
    serve,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

module.exports = { startTranslatorAgent };

if (require.main === module) {
  const [port, platformUrl, ...agentIds] = process.argv.slice(2);
  startTranslatorAgent({ port: Number(port || 4100), platformUrl: platformUrl || null, agentIds }).then((agent) => {
    process.stdout.write(`translator agent listening on ${agent.url}\n`);
    if (platformUrl && !agentIds.length)
      process.stderr.write(
        'no agent id given: every call is refused until it is started with the id this URL was registered under\n',
      );
  });
}
