/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: the dispute transitions (spec §3), the platform's resolution (resolutions §3, §7: POST
 * /api/v1/admin/disputes/:id/resolve, the stored resolution), reputation score changes of disputes (spec §2
 * Reputation, in REPUTATION_MODEL=spec).
 */
import { AgentServer, startAgentServer } from './support/agent-server';
import { api, expectStatus, poll } from './support/http';
import { balance, getAgent, ISO_8601 } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { file, resolve, respond, Sale, sell } from './support/disputes';

let m: Marketplace;
let agentServer: AgentServer;
beforeAll(async () => {
  m = await startMarketplace();
  agentServer = await startAgentServer();
}, 120_000);
afterAll(async () => {
  await agentServer?.close();
  await m?.stop();
});

async function disputed(): Promise<{ s: Sale; id: string }> {
  const s = await sell(m, agentServer);
  const r = await file(m, s.txId, { 'X-PAYMENT': s.run.payment });
  expectStatus(r, 201, 'file:');
  return { s, id: r.body.data.disputeId };
}

const score = async (agentId: string): Promise<number> => (await getAgent(m, agentId)).reputation_score;
const dispute = async (id: string) => (await api(m, 'GET', `/api/v1/disputes/${id}`)).body.data;

describe('Dispute transitions', () => {
  it('pending -> resolved by the platform: status, resolvedAt and the stored resolution', async () => {
    const { id } = await disputed();
    const r = await resolve(m, id, { resolution: 'agent_wins', note: 'The output was right' });
    expectStatus(r, 200, 'resolve:');
    const d = await dispute(id);
    expect(d.status).toBe('resolved');
    expect(d.resolvedAt).toMatch(ISO_8601);
    expect(d.resolution).toMatchObject({
      outcome: 'agent_wins',
      note: 'The output was right',
      refundAmount: '0.000000',
      releasedAmount: '1.900000',
      resolvedBy: expect.any(String),
    });
  });

  it('pending -> responded -> resolved', async () => {
    const { s, id } = await disputed();
    expectStatus(await respond(m, s, id, 'It matched the request'), 200, 'respond:');
    expect((await dispute(id)).status).toBe('responded');
    expectStatus(await resolve(m, id, { resolution: 'client_wins' }), 200, 'resolve:');
    const d = await dispute(id);
    expect(d).toMatchObject({ status: 'resolved', agentResponse: 'It matched the request' });
    expect(d.resolution).toMatchObject({
      outcome: 'client_wins',
      refundAmount: '2.000000',
      releasedAmount: '0.000000',
    });
  });

  it('a resolved dispute cannot be answered or resolved again', async () => {
    const { s, id } = await disputed();
    expectStatus(await resolve(m, id, { resolution: 'split' }), 200, 'resolve:');
    const again = await resolve(m, id, { resolution: 'client_wins' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE');
    expect((await respond(m, s, id, 'Too late')).status).toBe(409);
    expect((await dispute(id)).resolution.outcome).toBe('split');
  });
});

describe('Platform resolution (POST /api/v1/admin/disputes/:id/resolve)', () => {
  it('needs X-Admin-Key: none is UNAUTHORIZED (401), a wrong one FORBIDDEN (403)', async () => {
    const { id } = await disputed();
    const none = await resolve(m, id, { resolution: 'agent_wins' }, null);
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('UNAUTHORIZED');
    const wrong = await resolve(m, id, { resolution: 'agent_wins' }, `${m.adminKey}x`);
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('FORBIDDEN');
    expect((await dispute(id)).status).toBe('pending');
  });

  it('refuses an outcome other than agent_wins, client_wins or split (400)', async () => {
    const { id } = await disputed();
    const r = await resolve(m, id, { resolution: 'nobody_wins' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    expect((await dispute(id)).status).toBe('pending');
  });

  it('an unknown dispute is DISPUTE_NOT_FOUND (404)', async () => {
    const r = await resolve(m, 'dsp_doesnotexist', { resolution: 'agent_wins' });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('DISPUTE_NOT_FOUND');
  });

  it('agent_wins releases the frozen earnings to the agent', async () => {
    const { s, id } = await disputed();
    expect((await balance(m, s.agentId)).totalDisputed).toBe('1.900000');
    expectStatus(await resolve(m, id, { resolution: 'agent_wins' }), 200);
    const b = await poll(
      () => balance(m, s.agentId),
      (x) => x.available === '1.900000',
      'released to available',
    );
    expect(b.totalDisputed).toBe('0.000000');
  });

  it('client_wins refunds the agent fee (earnings + platform cut); split refunds half of it', async () => {
    const won = await disputed();
    expectStatus(await resolve(m, won.id, { resolution: 'client_wins' }), 200);
    expect((await balance(m, won.s.agentId)).available).toBe('0.000000');
    const half = await disputed();
    expectStatus(await resolve(m, half.id, { resolution: 'split', note: 'Half done' }), 200);
    const d = await dispute(half.id);
    // 1.000000 back: 0.950000 of the earnings and 0.050000 of the cut; the agent keeps 0.950000.
    expect(d.resolution).toMatchObject({
      outcome: 'split',
      note: 'Half done',
      refundAmount: '1.000000',
      releasedAmount: '0.950000',
    });
    await poll(
      () => balance(m, half.s.agentId),
      (x) => x.available === '0.950000',
      'the kept half available',
    );
  });
});

describe('Reputation', () => {
  it('a dispute filed against the agent: -5', async () => {
    const s = await sell(m, agentServer);
    const before = await score(s.agentId);
    expectStatus(await file(m, s.txId, { 'X-PAYMENT': s.run.payment }), 201);
    expect(await score(s.agentId)).toBe(before - 5);
  });

  it.each([
    ['agent_wins', 2],
    ['client_wins', -5],
    ['split', 0],
  ])('resolution %s changes the agent score by %i', async (outcome, delta) => {
    const { s, id } = await disputed();
    const before = await score(s.agentId);
    expectStatus(await resolve(m, id, { resolution: outcome }), 200, 'resolve:');
    expect(await score(s.agentId)).toBe(before + (delta as number));
    const rep = await api(m, 'GET', `/api/v1/reputation/${s.agentId}`);
    expectStatus(rep, 200, 'reputation:');
    expect(rep.body.data.score).toBe(before + (delta as number));
  });
});
