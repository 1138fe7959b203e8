import type { AgentCard as AgentCardType } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { FixedClock } from '@app/common';
import { MANIFEST_TTL_MS } from '@app/catalog';
import { startApi, ApiHarness } from '../support/api-harness';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';

/** An llms.txt link line: `- [title](url): rest`, the title's brackets escaped. */
const LINK_LINE = /^- \[((?:\\.|[^\\\]])*)\]\(([^()\s]+)\): (.*)$/;

/** Issue 32: the manifests, built from the discovery API's listing (the 402s' offers). */
describe('x402 manifests (e2e)', () => {
  const clock = new FixedClock(new Date());
  let api: ApiHarness;
  const ids: Record<string, string> = {};

  const register = async (name: string, caps: Record<string, unknown>[], extra: Record<string, unknown> = {}) => {
    const res = await registerAgent(api, newWallet(), {
      name,
      endpoints: { execution: 'https://agent.example.com/run' },
      capabilities: caps,
      ...extra,
    });
    expect(res.status).toBe(201);
    ids[name] = res.body.data.id;
  };
  const get = (path: string) => api.request('GET', path);
  /** Past the manifests' cache: the next request builds them again. */
  const fresh = () => clock.advance(MANIFEST_TTL_MS);
  const discovery = async () => (await get('/x402/discovery/resources?limit=100')).body.items as any[];
  const text = async (path: string) => {
    const res = await fetch(`${api.baseUrl}${path}`);
    return { res, body: await res.text() };
  };

  beforeAll(async () => {
    api = await startApi({}, { clock });
    await register('Polyglot', [
      capabilityPayload({ id: 'translate', name: 'Translate text', description: 'Translates text into French' }),
      capabilityPayload({ id: 'detect-language', name: 'Detect language', description: 'Says which language' }),
    ]);
    await register(
      'Weatherman',
      [capabilityPayload({ id: 'forecast', name: 'Weather forecast', description: 'Forecasts the weather' })],
      { metadata: { tags: ['weather'] } },
    );
    await register('Evil](https://evil.example) <img src=x onerror=alert(1)>', [
      capabilityPayload({
        id: 'inject',
        name: 'Line\nbreak\r\n# Heading\u2028[x](javascript:alert(1))',
        description: '<script>alert(1)</script>\n\n## Docs\n- [phish](https://evil.example)\u001b[31m `code` *b* _i_',
      }),
    ]);
  });
  afterAll(() => api.close());

  it('/.well-known/x402: the discovery draft manifest, the resources as pointers to the 402s', async () => {
    const res = await get('/.well-known/x402');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000000'); // counted (the catalog window, raised by the harness)
    const m = res.body;
    expect(Number.isInteger(m.x402Version) && m.x402Version === 2).toBe(true);
    expect(m).not.toHaveProperty('success');
    expect(m).toMatchObject({ kind: 'resource-server', name: 'agora', attestation: { type: 'none' } });
    expect(typeof m.description).toBe('string');
    expect(new Date(m.updated).toISOString()).toBe(m.updated);
    const base = api.config.publicBaseUrl;
    expect(m.docs).toBe(`${base}/api/docs`);
    expect(m.discovery).toEqual({
      resources: `${base}/x402/discovery/resources`,
      search: `${base}/x402/discovery/search`,
      manifest: `${base}/.well-known/x402.json`,
    });
    const listed = await discovery();
    expect(m).toMatchObject({ total: listed.length, truncated: false });
    expect(m.resources).toEqual(listed.map((i) => ({ url: i.resource, method: 'POST', description: i.description })));
    expect(m.resources.map((r: any) => r.url)).toContain(
      `${base}/api/v1/agents/${ids.Weatherman}/capabilities/forecast/execute`,
    );
    // Each points at the capability's 402, which says the same.
    const pointer = m.resources.find((r: any) => r.url.endsWith('/forecast/execute'));
    const paid = await api.request('POST', new URL(pointer.url).pathname, { body: { text: 'x' } });
    expect(paid.status).toBe(402);
    const offer = JSON.parse(Buffer.from(paid.headers.get('payment-required')!, 'base64').toString());
    expect(offer.resource).toMatchObject({ url: pointer.url, description: pointer.description });
  });

  it('/.well-known/x402.json: the well-known draft manifest, the 402s with input and output lifted', async () => {
    fresh();
    const res = await get('/.well-known/x402.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const m = res.body;
    expect(m.x402Version).toBe(2);
    expect(Number.isInteger(m.lastUpdated)).toBe(true);
    expect(m.lastUpdated).toBe(Math.floor(clock.nowMs() / 1000));
    const listed = await discovery();
    expect(m.pagination).toEqual({ offset: 0, limit: 100, total: listed.length });
    expect(m.next).toBeNull();
    expect(m.items.map((i: any) => i.resource.url)).toEqual(listed.map((i) => i.resource));
    for (const [n, item] of m.items.entries()) {
      const r = listed[n];
      expect(item.type).toBe('http');
      expect(item.accepts).toEqual(r.accepts);
      expect(item.resource).toEqual({
        url: r.resource,
        description: r.description,
        mimeType: r.mimeType,
        serviceName: r.serviceName,
        tags: r.tags,
      });
      const bazaar = r.extensions.bazaar;
      // No routeTemplate nor pathParams: each capability is listed under its own URL (issue 51).
      expect(item.input).toEqual({
        method: 'POST',
        bodyType: 'json',
        body: bazaar.schema.properties.input.properties.body,
      });
      expect(item.input.body).toMatchObject({ properties: { text: { type: 'string' } } });
      expect(item.output).toEqual({
        mimeType: 'application/json',
        example: bazaar.info.output.example,
        schema: bazaar.schema.properties.output.properties.example,
      });
      expect(item).not.toHaveProperty('requires');
    }
    // The same accepts as the live 402.
    const paid = await api.request('POST', new URL(m.items[0].resource.url).pathname, { body: { text: 'x' } });
    expect(JSON.parse(Buffer.from(paid.headers.get('payment-required')!, 'base64').toString()).accepts).toEqual(
      m.items[0].accepts,
    );
  });

  it('/.well-known/x402.json pages by offset with a next link, and refuses a bad page', async () => {
    const all = (await get('/.well-known/x402.json')).body.items.map((i: any) => i.resource.url);
    const paged: string[] = [];
    let next: string | null = `${api.config.publicBaseUrl}/.well-known/x402.json?limit=2`;
    while (next) {
      const page: any = (await get(new URL(next).pathname + new URL(next).search)).body;
      expect(page.items.length).toBeLessThanOrEqual(2);
      paged.push(...page.items.map((i: any) => i.resource.url));
      next = page.next;
    }
    expect(paged).toEqual(all);
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'limit=x', 'other=1']) {
      const res = await get(`/.well-known/x402.json?${q}`);
      expect({ q, status: res.status, code: res.body?.error?.code }).toEqual({
        q,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
  });

  it('/.well-known/agent-card.json: an A2A card read by the SDK, the capabilities as skills', async () => {
    fresh();
    const { DefaultAgentCardResolver } = await import('@a2a-js/sdk/client');
    const { AgentCard } = await import('@a2a-js/sdk');
    const card: AgentCardType = await new DefaultAgentCardResolver().resolve(api.baseUrl);
    const raw = (await get('/.well-known/agent-card.json')).body;
    expect(card).toEqual(raw);
    // The protobuf JSON reading of the SDK keeps every field as sent.
    expect(AgentCard.toJSON(AgentCard.fromJSON(raw))).toEqual(AgentCard.toJSON(raw));
    expect(AgentCard.fromJSON(raw)).toMatchObject(raw);
    const base = api.config.publicBaseUrl;
    expect(card).toMatchObject({
      name: 'agora',
      // The interface agora serves (issue 51; x402-to-the-letter checks it with the SDK).
      supportedInterfaces: [
        { url: `${base}/api/v1/execute`, protocolBinding: expect.any(String), protocolVersion: '1.0' },
      ],
      provider: { url: base, organization: 'agora' },
      documentationUrl: `${base}/api/docs`,
      capabilities: { streaming: false, pushNotifications: false, extensions: [] },
      defaultInputModes: ['application/json'],
      defaultOutputModes: ['application/json'],
    });
    const listed = await discovery();
    expect(card.skills.map((s) => s.description.split(' POST ').pop())).toEqual(listed.map((i) => i.resource));
    const forecast = card.skills.find((s) => s.id === `${ids.Weatherman}/forecast`)!;
    expect(forecast).toEqual({
      id: `${ids.Weatherman}/forecast`,
      name: 'Weatherman: Weather forecast',
      description: `Forecasts the weather Price: 0.011000 USDC a call, paid with x402. POST ${base}/api/v1/agents/${ids.Weatherman}/capabilities/forecast/execute`,
      tags: ['forecast', 'weather'],
      examples: [],
      inputModes: ['application/json'],
      outputModes: ['application/json'],
      securityRequirements: [],
    });
    const evil = card.skills.find((s) => s.id.endsWith('/inject'))!;
    expect(evil.name).not.toMatch(/[\p{Cc}\u2028]/u);
    expect(evil.description).not.toMatch(/[\p{Cc}\u2028]/u);
  });

  it('/llms.txt: llmstxt.org Markdown, agent text unable to break out of its line', async () => {
    fresh();
    const { res, body } = await text('/llms.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const lines = body.split('\n');
    expect(lines[0]).toBe('# agora');
    expect(lines[2]).toMatch(/^> \S/);
    const headings = lines.filter((l) => /^#/.test(l));
    expect(headings).toEqual(['# agora', '## Docs', '## Capabilities', '## Optional']);
    const section = (h: string) => {
      const from = lines.indexOf(h) + 1;
      const to = lines.findIndex((l, i) => i > from && l.startsWith('## '));
      return lines.slice(from, to === -1 ? undefined : to).filter((l) => l.startsWith('- '));
    };
    const base = api.config.publicBaseUrl;
    const docs = section('## Docs').map((l) => LINK_LINE.exec(l)![2]);
    expect(docs).toEqual(expect.arrayContaining([`${base}/api/docs-json`, `${base}/api/docs`]));
    expect(section('## Optional').map((l) => LINK_LINE.exec(l)![2])).toEqual([
      `${base}/.well-known/x402`,
      `${base}/.well-known/x402.json`,
      `${base}/.well-known/agent-card.json`,
    ]);
    const caps = section('## Capabilities').map((l) => LINK_LINE.exec(l));
    expect(caps.every(Boolean)).toBe(true);
    expect(caps.map((m) => m![2])).toEqual((await discovery()).map((i) => i.resource));
    expect(caps.find((m) => m![2].endsWith('/forecast/execute'))![0]).toBe(
      `- [Weatherman: Weather forecast](${base}/api/v1/agents/${ids.Weatherman}/capabilities/forecast/execute): ` +
        '0.011000 USDC. Forecasts the weather',
    );
    // Hostile text: no raw HTML, no link, no line of its own; every Markdown character escaped.
    const evil = caps.find((m) => m![2].endsWith('/inject/execute'))!;
    expect(evil[1]).toContain('Evil\\]\\(https\\://evil.example\\) \\<img');
    expect(evil[3]).toContain('\\<script\\>alert\\(1\\)\\</script\\> \\#\\# Docs - \\[phish\\]');
    expect(body).not.toMatch(/(^|[^\\])[<[]script|\p{Cc}(?<!\n)|\u2028/u);
    expect(body).not.toContain('\r');
  });

  it('serves a new agent once the cache has expired, not before', async () => {
    fresh();
    const before = {
      x402: (await get('/.well-known/x402')).body,
      json: (await get('/.well-known/x402.json')).body,
      card: (await get('/.well-known/agent-card.json')).body,
      llms: (await text('/llms.txt')).body,
    };
    await register('Summarizer', [capabilityPayload({ id: 'summarize', name: 'Summarize', description: 'Summaries' })]);
    const url = `/agents/${ids.Summarizer}/capabilities/summarize/execute`;
    expect((await get('/.well-known/x402')).body).toEqual(before.x402);
    expect((await get('/.well-known/x402.json')).body).toEqual(before.json);
    expect((await get('/.well-known/agent-card.json')).body).toEqual(before.card);
    expect((await text('/llms.txt')).body).toBe(before.llms);
    clock.advance(MANIFEST_TTL_MS - 1);
    expect(JSON.stringify((await get('/.well-known/x402')).body)).not.toContain(url);
    clock.advance(1);
    expect(JSON.stringify((await get('/.well-known/x402')).body)).toContain(url);
    expect(JSON.stringify((await get('/.well-known/x402.json')).body)).toContain(url);
    expect(JSON.stringify((await get('/.well-known/agent-card.json')).body)).toContain(url);
    expect((await text('/llms.txt')).body).toContain(url);
  });

  it('is served outside /api/v1 only, and documented in the OpenAPI document', async () => {
    for (const path of ['/.well-known/x402', '/.well-known/x402.json', '/.well-known/agent-card.json', '/llms.txt'])
      expect((await get(`/api/v1${path}`)).status).toBe(404);
    const doc = (await get('/api/docs-json')).body;
    for (const path of ['/.well-known/x402', '/.well-known/x402.json', '/.well-known/agent-card.json', '/llms.txt']) {
      expect(doc.paths[path].get.responses['200']).toBeDefined();
      expect(doc.paths[path].get.responses['429']).toBeDefined();
    }
    expect(doc.paths['/llms.txt'].get.responses['200'].content).toHaveProperty('text/plain');
  });
});
