/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: the Dispute resource (spec §2), the Disputes endpoints (spec §4), filing proof and the admin resolution
 * (resolutions §3, §7). Transitions and reputation: disputes-resolution.contract-spec.ts.
 */
import { AgentServer, startAgentServer } from './support/agent-server';
import { api, expectStatus } from './support/http';
import { balance, ISO_8601 } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { agentHeaders, clientHeaders, clientSignature, newWallet } from './support/wallets';
import { file, respond, Sale, sell } from './support/disputes';

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

const HOURS_48 = 48 * 3600 * 1000;
const byPayment = (s: Sale) => ({ 'X-PAYMENT': s.run.payment });

describe('Dispute', () => {
  it('POST /disputes by the payer (original X-PAYMENT) answers disputeId, status pending, respondBy = +48 h', async () => {
    const s = await sell(m, agentServer);
    const r = await file(m, s.txId, byPayment(s), { reason: 'Wrong answer', evidence: 'The output was empty' });
    expectStatus(r, 201, 'file:');
    const d = r.body.data;
    expect(d.disputeId).toMatch(/^dsp_/);
    expect(d).toMatchObject({ transactionId: s.txId, status: 'pending', reason: 'Wrong answer' });
    expect(d.createdAt).toMatch(ISO_8601);
    expect(Date.parse(d.respondBy) - Date.parse(d.createdAt)).toBe(HOURS_48);
  });

  it('POST /disputes by the payer with X-Client-Wallet + X-Client-Signature', async () => {
    const s = await sell(m, agentServer);
    const r = await file(m, s.txId, await clientHeaders(s.payer, s.txId));
    expectStatus(r, 201, 'file with a client signature:');
    expect(r.body.data.status).toBe('pending');
  });

  it('GET /disputes/:id returns every field; agentResponse, resolution and resolvedAt null until set', async () => {
    const s = await sell(m, agentServer);
    const filed = (await file(m, s.txId, byPayment(s), { reason: 'Too slow', evidence: 'log line' })).body.data;
    const r = await api(m, 'GET', `/api/v1/disputes/${filed.disputeId}`);
    expectStatus(r, 200, 'GET dispute:');
    const d = r.body.data;
    expect(d).toMatchObject({
      id: filed.disputeId,
      transactionId: s.txId,
      agentId: s.agentId,
      status: 'pending',
      reason: 'Too slow',
      evidence: 'log line',
      agentResponse: null,
      resolution: null,
      resolvedAt: null,
      createdAt: filed.createdAt,
      respondBy: filed.respondBy,
    });
    expect(d.clientId.toLowerCase()).toBe(s.payer.address.toLowerCase());
  });

  it('filing freezes the earnings: the balance shows them as disputed', async () => {
    const s = await sell(m, agentServer);
    expectStatus(await file(m, s.txId, byPayment(s)), 201);
    const b = await balance(m, s.agentId);
    expect(b.totalDisputed).toBe('1.900000');
    expect(b.available).toBe('0.000000');
  });

  it('a reason over 1000 characters, or none, is VALIDATION_ERROR (400); 1000 is accepted', async () => {
    const s = await sell(m, agentServer);
    for (const body of [{ reason: 'r'.repeat(1001) }, { reason: undefined }]) {
      const r = await file(m, s.txId, byPayment(s), body);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
    }
    expectStatus(await file(m, s.txId, byPayment(s), { reason: 'r'.repeat(1000) }), 201, 'reason of 1000:');
  });

  it('GET /disputes/:id of an unknown id is DISPUTE_NOT_FOUND (404)', async () => {
    const r = await api(m, 'GET', '/api/v1/disputes/dsp_doesnotexist');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, error: { code: 'DISPUTE_NOT_FOUND' } });
  });
});

describe('Disputes', () => {
  it('filing without proof of payment is UNAUTHORIZED (401)', async () => {
    const s = await sell(m, agentServer);
    const r = await file(m, s.txId, {});
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('UNAUTHORIZED');
  });

  it('filing by someone who is not the payer is FORBIDDEN (403)', async () => {
    const s = await sell(m, agentServer);
    const other = await sell(m, agentServer);
    const stranger = newWallet();
    for (const headers of [byPayment(other), await clientHeaders(stranger, s.txId)]) {
      const r = await file(m, s.txId, headers);
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('FORBIDDEN');
    }
    // The payer's signature made for another transaction proves nothing about this one.
    const crossed = {
      'X-Client-Wallet': s.payer.address,
      'X-Client-Signature': await clientSignature(s.payer, other.txId),
    };
    expect((await file(m, s.txId, crossed)).status).toBe(403);
  });

  it('a second dispute of one transaction is DISPUTE_EXISTS (409)', async () => {
    const s = await sell(m, agentServer);
    expectStatus(await file(m, s.txId, byPayment(s)), 201);
    const r = await file(m, s.txId, await clientHeaders(s.payer, s.txId));
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('DISPUTE_EXISTS');
  });

  it('GET /disputes/agent/:agentId lists the disputes with total, a status filter, limit and offset', async () => {
    const first = await sell(m, agentServer);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const s = i === 0 ? first : await sell(m, agentServer, first);
      ids.push((await file(m, s.txId, byPayment(s), { reason: `reason ${i}` })).body.data.disputeId);
    }
    expectStatus(await respond(m, first, ids[0], 'It was right'), 200, 'respond:');
    const list = await api(m, 'GET', `/api/v1/disputes/agent/${first.agentId}`);
    expectStatus(list, 200, 'list:');
    expect(list.body.data.total).toBe(3);
    expect(list.body.data.disputes.map((d: any) => d.id).sort()).toEqual([...ids].sort());
    for (const d of list.body.data.disputes) {
      expect(Object.keys(d)).toEqual(
        expect.arrayContaining(['id', 'transactionId', 'status', 'reason', 'createdAt', 'respondBy']),
      );
    }
    const responded = await api(m, 'GET', `/api/v1/disputes/agent/${first.agentId}?status=responded`);
    expect(responded.body.data).toMatchObject({ total: 1, disputes: [{ id: ids[0], status: 'responded' }] });
    const pending = await api(m, 'GET', `/api/v1/disputes/agent/${first.agentId}?status=pending`);
    expect(pending.body.data.total).toBe(2);
    const page = await api(m, 'GET', `/api/v1/disputes/agent/${first.agentId}?limit=2&offset=2`);
    expect(page.body.data.disputes).toHaveLength(1);
    expect(page.body.data.total).toBe(3);
  });

  it('POST /disputes/:id/respond (spec signature) answers status responded, agentResponse, respondedAt', async () => {
    const s = await sell(m, agentServer);
    const id = (await file(m, s.txId, byPayment(s))).body.data.disputeId;
    const r = await respond(m, s, id, 'The output matched the input', { evidence: 'trace' });
    expectStatus(r, 200, 'respond:');
    expect(r.body.data).toMatchObject({
      disputeId: id,
      status: 'responded',
      agentResponse: 'The output matched the input',
    });
    expect(r.body.data.respondedAt).toMatch(ISO_8601);
    const read = (await api(m, 'GET', `/api/v1/disputes/${id}`)).body.data;
    expect(read).toMatchObject({
      status: 'responded',
      agentResponse: 'The output matched the input',
      resolution: null,
    });
  });

  it('respond: over 2000 characters is VALIDATION_ERROR, another wallet FORBIDDEN, a second answer refused', async () => {
    const s = await sell(m, agentServer);
    const id = (await file(m, s.txId, byPayment(s))).body.data.disputeId;
    const long = await respond(m, s, id, 'x'.repeat(2001));
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('VALIDATION_ERROR');
    const stranger = newWallet();
    const forbidden = await api(m, 'POST', `/api/v1/disputes/${id}/respond`, {
      body: { response: 'Not mine' },
      headers: await agentHeaders(stranger, s.agentId),
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('FORBIDDEN');
    expectStatus(await respond(m, s, id, 'y'.repeat(2000)), 200, 'response of 2000:');
    const again = await respond(m, s, id, 'Changed my mind');
    expect(again.status).toBe(409);
    expect((await api(m, 'GET', `/api/v1/disputes/${id}`)).body.data.agentResponse).toBe('y'.repeat(2000));
  });
});
