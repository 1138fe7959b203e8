import { useState } from 'react';

/** A capability as the agent page has it. */
export interface SnippetCapability {
  id: string;
  pricing: { basePrice: string; maxPrice?: string | null };
  inputSchema?: unknown;
}

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
};

/**
 * An input for the snippets: the schema's own example (`example`, `examples[0]`, `default`), else its
 * required properties (all when none is), each the same way or a placeholder of its type.
 */
export function exampleInput(schema: unknown, depth = 0): unknown {
  const s = (schema ?? {}) as Schema;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'string') return '...';
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (depth > 3 || !s.properties) return {};
  const keys = s.required?.length ? s.required : Object.keys(s.properties);
  return Object.fromEntries(keys.map((k) => [k, exampleInput(s.properties?.[k], depth + 1)]));
}

/** `s` as one shell word in single quotes (a quote inside closes, escapes and reopens): the example input comes from the agent. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Ready-to-copy ways to call one capability: curl with x402, the SDK, the CLI, and an MCP client's configuration. */
export function snippets(origin: string, agentId: string, c: SnippetCapability): Record<string, string> {
  const input = JSON.stringify(exampleInput(c.inputSchema));
  const url = `${origin}/api/v1/agents/${agentId}/capabilities/${c.id}/execute`;
  const cap = c.pricing.maxPrice ?? c.pricing.basePrice;
  return {
    curl: [
      `# 1. Ask: the 402 answer lists what to pay (accepts) and where.`,
      `curl -i -X POST ${url} \\`,
      `  -H 'content-type: application/json' -d ${shellQuote(input)}`,
      `# 2. Sign an x402 payment for one of them with your wallet (any x402 client), and send it.`,
      `curl -X POST ${url} \\`,
      `  -H 'content-type: application/json' -H "X-PAYMENT: $PAYMENT" -d ${shellQuote(input)}`,
    ].join('\n'),
    SDK: [
      `import { AgoraClient } from '@agora/sdk';`,
      `const agora = new AgoraClient({ baseUrl: '${origin}', wallet: process.env.KEY, spendCap: { perCall: '${cap}' } });`,
      `const run = await agora.execute({ targetAgentId: '${agentId}', capabilityId: '${c.id}', input: ${input} });`,
      `console.log(run.output, run.paid);`,
    ].join('\n'),
    CLI: `agora execute ${agentId} ${c.id} --input ${shellQuote(input)} --api ${origin}`,
    MCP: JSON.stringify(
      {
        mcpServers: {
          agora: {
            command: 'npx',
            args: ['-y', '@agora/mcp'],
            env: { AGORA_URL: origin, AGORA_MCP_CAPABILITIES: `${agentId}:${c.id}`, AGORA_MAX_PER_CALL: cap },
          },
        },
      },
      null,
      2,
    ),
  };
}

/** The snippets of one capability, one tab each, with a copy button. */
export function Snippets({ agentId, capability }: { agentId: string; capability: SnippetCapability }) {
  const all = snippets(window.location.origin, agentId, capability);
  const [tab, setTab] = useState('curl');
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard?.writeText(all[tab]).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <div className="snippets" data-testid={`snippets-${capability.id}`}>
      <div className="ranges" role="group" aria-label={`How to call ${capability.id}`}>
        {Object.keys(all).map((k) => (
          <button
            key={k}
            type="button"
            aria-pressed={tab === k}
            onClick={() => {
              setTab(k);
              setCopied(false);
            }}
          >
            {k}
          </button>
        ))}
        <button type="button" className="secondary" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre data-testid={`snippet-${capability.id}`} tabIndex={0} aria-label={`${tab} snippet`}>
        {all[tab]}
      </pre>
    </div>
  );
}
