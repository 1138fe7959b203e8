/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: webhooks and events (spec §4 "Webhooks", §6 "Events" and its event data table, resolutions §9): a
 * subscription made with the spec's wallet signature, and the delivery of execution events, its body and headers,
 * both signatures checked over the exact bytes received.
 */
import { createHmac } from 'node:crypto';
import { Wallet } from 'ethers';
import { AgentRequest, AgentServer, startAgentServer } from './support/agent-server';
import { api, expectStatus, poll, Reply } from './support/http';
import { execute, ISO_8601, registerAgent } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { agentHeaders, newWallet } from './support/wallets';

const SECRET = 'contract-webhook-secret-0123456789abcdef';
const EVENTS = ['execution.completed', 'execution.failed'];
let m: Marketplace;
let agent: AgentServer;
let receiver: AgentServer;
let owner: Wallet;
let agentId: string;
let created: Reply;

beforeAll(async () => {
  m = await startMarketplace();
  agent = await startAgentServer((req) =>
    req.body?.input?.fail ? { status: 500, body: { error: 'failed on purpose' } } : { body: { output: { ok: true } } },
  );
  receiver = await startAgentServer(() => ({ body: { received: true } }));
  owner = newWallet();
  agentId = (await registerAgent(m, owner, { endpoints: { execution: agent.url } })).id;
  // The spec's form of the wallet signature (`agora-auth:<agent_id>:<timestamp>:sig:<signature>`).
  created = await api(m, 'POST', '/api/v1/webhooks', {
    body: { agentId, url: receiver.url, events: EVENTS, secret: SECRET },
    headers: await agentHeaders(owner, agentId),
  });
}, 120_000);
afterAll(async () => {
  await Promise.all([agent?.close(), receiver?.close()]);
  await m?.stop();
});

/** Runs one execution and waits for the delivery of `type` about it. */
async function deliveryOf(type: string, fail = false): Promise<{ requestId: string; delivery: AgentRequest }> {
  expectStatus(created, 201, 'the subscription (spec-form signature):');
  const r = await execute(m, newWallet(), { targetAgentId: agentId, capabilityId: 'echo', input: { fail } });
  const requestId = fail ? r.body.error?.details?.requestId : r.body.data?.requestId;
  expect(requestId).toMatch(/^req_/);
  await poll(
    async () => receiver.calls.find((c) => c.body?.type === type && c.body?.data?.requestId === requestId),
    (found) => found !== undefined,
    `the ${type} delivery of ${requestId}`,
  );
  const delivery = receiver.calls.find((c) => c.body?.type === type && c.body?.data?.requestId === requestId)!;
  return { requestId, delivery };
}

const hmac = (data: string, encoding: 'hex' | 'base64') =>
  createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(Buffer.from(data, 'utf8')).digest(encoding);

describe('Webhooks', () => {
  it('subscribes with X-Agent-Wallet and the spec-form X-Agent-Signature: 201 with the subscription', () => {
    expectStatus(created, 201, 'POST /webhooks:');
    expect(created.body.data).toMatchObject({
      webhookId: expect.stringMatching(/^wh_/),
      agentId,
      url: receiver.url,
      events: EVENTS,
      status: 'active',
    });
    expect(created.body.data.createdAt).toMatch(ISO_8601);
    expect(created.text).not.toContain(SECRET);
  });

  it('lists the agent subscriptions without their secret', async () => {
    const r = await api(m, 'GET', `/api/v1/webhooks/agent/${agentId}`);
    expectStatus(r, 200, 'list webhooks:');
    expect(r.body.data.total).toBe(1);
    expect(r.body.data.webhooks[0]).toMatchObject({
      id: created.body.data.webhookId,
      url: receiver.url,
      events: EVENTS,
      status: 'active',
    });
    expect(r.body.data.webhooks[0].createdAt).toMatch(ISO_8601);
    expect(r.text).not.toContain(SECRET);
  });

  it('deletes a subscription with the spec-form signature: {message, id}, and lists it no more', async () => {
    const extra = await api(m, 'POST', '/api/v1/webhooks', {
      body: { agentId, url: receiver.url, events: ['escrow.released'] },
      headers: await agentHeaders(owner, agentId),
    });
    expectStatus(extra, 201, 'second subscription:');
    const id = extra.body.data.webhookId;
    const del = await api(m, 'DELETE', `/api/v1/webhooks/${id}`, { headers: await agentHeaders(owner, agentId) });
    expectStatus(del, 200, 'DELETE webhook:');
    expect(del.body.data).toMatchObject({ message: expect.any(String), id });
    const list = await api(m, 'GET', `/api/v1/webhooks/agent/${agentId}`);
    expect(list.body.data.webhooks.map((w: { id: string }) => w.id)).not.toContain(id);
  });
});

describe('Events', () => {
  it('delivers execution.completed as a POST of {id evt_..., type, timestamp, data}', async () => {
    const { delivery } = await deliveryOf('execution.completed');
    expect(delivery.method).toBe('POST');
    expect(delivery.body).toMatchObject({ id: expect.stringMatching(/^evt_/), type: 'execution.completed' });
    expect(delivery.body.timestamp).toMatch(ISO_8601);
  });

  it('sends Content-Type, X-Webhook-ID, X-Event-ID, X-Timestamp (Unix seconds) and X-Signature', async () => {
    const { delivery } = await deliveryOf('execution.completed');
    const h = delivery.headers;
    expect(String(h['content-type'])).toMatch(/^application\/json/);
    expect(h['x-webhook-id']).toBe(created.body.data.webhookId);
    expect(h['x-event-id']).toBe(delivery.body.id);
    expect(h['x-timestamp']).toMatch(/^\d{10}$/);
    expect(Math.abs(Number(h['x-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    // HMAC-SHA256 hex of the exact body bytes, with the subscription's secret.
    expect(h['x-signature']).toBe(hmac(delivery.raw, 'hex'));
  });

  it('sends the Standard Webhooks headers: webhook-signature v1,<base64 HMAC of "id.timestamp.body">', async () => {
    const { delivery } = await deliveryOf('execution.completed');
    const h = delivery.headers;
    expect(h['webhook-id']).toBe(delivery.body.id);
    expect(h['webhook-timestamp']).toMatch(/^\d{10}$/);
    const expected = `v1,${hmac(`${h['webhook-id']}.${h['webhook-timestamp']}.${delivery.raw}`, 'base64')}`;
    expect(String(h['webhook-signature']).split(' ')).toContain(expected);
  });
});

describe('Event data', () => {
  it('gives execution.completed requestId, agentId, capabilityId, executionTime (ms) and earnings', async () => {
    const { requestId, delivery } = await deliveryOf('execution.completed');
    expect(delivery.body.data).toMatchObject({ requestId, agentId, capabilityId: 'echo', earnings: '0.009500' });
    expect(Number.isInteger(delivery.body.data.executionTime)).toBe(true);
  });

  it('gives execution.failed requestId, agentId, capabilityId and error', async () => {
    const { requestId, delivery } = await deliveryOf('execution.failed', true);
    expect(delivery.body.data).toMatchObject({ requestId, agentId, capabilityId: 'echo', error: expect.any(String) });
  });
});
