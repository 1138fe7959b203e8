#!/usr/bin/env node
/* An example agora agent: a tiny "translator" that upper-cases text. It shows what an agent
   does: receive POST {requestId, capabilityId, input}, check X-Agora-Signature with the SDK's
   agent kit (@agora/sdk: the platform's keys from GET /api/v1/platform/keys), answer 2xx {output}.
   It reports `usage.tokens` (input.tokens, or the text's length) and, when input.cost is given,
   `cost` (for dynamic pricing); input.delayMs delays the answer (per-minute pricing).
   `input.mode` scripts failures for tests: fail (500), refuse (400: it turns the request down), slow (answers after 2 s), bad-output,
   nul-output and nul-error (text Postgres cannot store),
   not-json, no-usage. Run: node examples/translator-agent.js [port] [agora base URL]
   (after `npm run build:sdk`). */
const { createServer } = require('node:http');
const { AgentKit } = require('@agora/sdk');

/**
 * Starts the agent. `platformUrl`, when given, makes it refuse calls whose signature does not
 * verify with the platform's key. Resolves with {url, calls, stop}.
 */
async function startTranslatorAgent({ port = 0, host = '127.0.0.1', platformUrl = null, defaultMode = 'ok', keepCalls = true } = {}) {
  const kit = platformUrl ? new AgentKit({ platformUrl }) : null;
  const state = { defaultMode, calls: [] };
  const server = createServer((req, res) => {
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
      if (kit) {
        try {
          await kit.verifyCall(req.headers, body);
        } catch {
          return send(401, { error: 'not signed by the platform' });
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
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

module.exports = { startTranslatorAgent };

if (require.main === module) {
  startTranslatorAgent({ port: Number(process.argv[2] || 4100), platformUrl: process.argv[3] || null }).then((agent) => {
    process.stdout.write(`translator agent listening on ${agent.url}\n`);
  });
}
