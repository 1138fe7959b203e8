import { FixedClock } from '@app/common';
import { MANIFEST_TTL_MS } from '@app/catalog';
import { startApi, ApiHarness } from '../support/api-harness';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';

/** The byte caps the manifests stay under with every listed text at its longest (150 agents). */
const CAPS = { x402: 64 * 1024, x402Json: 768 * 1024, agentCard: 96 * 1024, llmsTxt: 64 * 1024 };

/** An llms.txt link line: `- [title](url): rest`, the title's brackets escaped. */
const LINK_LINE = /^- \[((?:\\.|[^\\\]])*)\]\(([^()\s]+)\): (.*)$/;

/** Issue 32: the manifests are capped, and say so (MANIFEST_SIZES=1 prints their sizes). */
describe('x402 manifests, bounded (e2e)', () => {
  const clock = new FixedClock(new Date());
  let api: ApiHarness;

  const register = async (name: string, caps: Record<string, unknown>[], extra: Record<string, unknown> = {}) => {
    const res = await registerAgent(api, newWallet(), {
      name,
      endpoints: { execution: 'https://agent.example.com/run' },
      capabilities: caps,
      ...extra,
    });
    expect(res.status).toBe(201);
  };
  const fresh = () => clock.advance(MANIFEST_TTL_MS);
  const text = async (path: string) => {
    const res = await fetch(`${api.baseUrl}${path}`);
    return { res, body: await res.text() };
  };

  beforeAll(async () => {
    api = await startApi({}, { clock });
  });
  afterAll(() => api.close());

  it('stays bounded with 150 agents at their longest texts, and says it was cut', async () => {
    const long = (c: string, n: number) => `${c}]`.repeat(n).slice(0, n);
    const wave = Array.from({ length: 150 }, (_, n) => n);
    for (let i = 0; i < wave.length; i += 15) {
      await Promise.all(
        wave.slice(i, i + 15).map((n) =>
          register(
            `${String(n).padStart(3, '0')}${long('A', 97)}`,
            [
              capabilityPayload({
                id: `c${n}-${'x'.repeat(90)}`,
                name: long('N', 100),
                description: `${long('<d>', 999)}\n`,
              }),
            ],
            { description: long('D', 1000), metadata: { tags: ['t'.repeat(32), 'u'.repeat(32)] } },
          ),
        ),
      );
    }
    fresh();
    const sizes: Record<string, number> = {};
    const x402 = await text('/.well-known/x402');
    sizes.x402 = Buffer.byteLength(x402.body);
    const m = JSON.parse(x402.body);
    expect(m.resources).toHaveLength(100);
    expect(m.truncated).toBe(true);
    expect(m.total).toBeGreaterThanOrEqual(150);
    const json = await text('/.well-known/x402.json');
    sizes.x402Json = Buffer.byteLength(json.body);
    const page = JSON.parse(json.body);
    expect(page.items).toHaveLength(100);
    expect(page.next).toBe(`${api.config.publicBaseUrl}/.well-known/x402.json?offset=100&limit=100`);
    const card = await text('/.well-known/agent-card.json');
    sizes.agentCard = Buffer.byteLength(card.body);
    const skills = JSON.parse(card.body).skills;
    expect(skills).toHaveLength(50);
    expect(JSON.parse(card.body).description).toMatch(/The 50 best-ranked of \d+ capabilities/);
    for (const s of skills) expect(s.description.length).toBeLessThan(700);
    const llms = await text('/llms.txt');
    sizes.llmsTxt = Buffer.byteLength(llms.body);
    expect(llms.body.split('\n').filter((l) => LINK_LINE.test(l) && l.includes('/execute'))).toHaveLength(50);
    expect(llms.body).toMatch(/The 50 best-ranked of \d+ capabilities/);
    for (const [name, cap] of Object.entries(CAPS))
      expect({ name, bytes: sizes[name] < cap }).toEqual({ name, bytes: true });
    if (process.env.MANIFEST_SIZES) process.stdout.write(`manifest sizes: ${JSON.stringify(sizes)}\n`);
  });
});
