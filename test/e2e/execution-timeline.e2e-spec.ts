import { startApiWithAgent, ApiWithAgent } from '../support/api-with-agent';
import { fileDispute, paidExecute, resolveDispute } from '../support/disputes';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;

interface Event {
  type: string;
  at: string;
  offsetMs: number;
  amount?: string;
  txHash?: string;
  detail?: string;
}

/**
 * An execution's timeline (issue 35): what happened to it and its money, by request id or
 * transaction id, checked against the rows the api wrote and the answers it gave.
 */
describe('execution timeline (e2e)', () => {
  let env: ApiWithAgent;
  const timeline = (id: string) => env.api.request('GET', `/api/v1/execute/${id}/timeline`);
  const types = (events: Event[]) => events.map((e) => e.type);

  beforeAll(async () => {
    env = await startApiWithAgent({ EXECUTION_TIMEOUT_MS: '1000' });
  });
  afterAll(() => env.stop());

  it('a paid run: received, running, completed, charged, settled, held in escrow; the same by its transaction id', async () => {
    const call = await paidExecute(env.api, env.agentId, newWallet(), PRICE, { text: 'hi', delayMs: 30 });
    const r = await timeline(call.requestId);
    expect(r.status).toBe(200);
    const t = r.body.data;
    expect(t).toMatchObject({ requestId: call.requestId, transactionId: call.transactionId, status: 'completed' });
    // The run's steps in order; what its charge's transaction wrote (charge, settlement, hold) after them.
    expect(types(t.events).slice(0, 3)).toEqual(['received', 'running', 'completed']);
    expect(types(t.events).slice(3).sort()).toEqual(['charged', 'escrow_held', 'settled']);
    const [row] = await env.ds.query(
      `SELECT e.completed_at, c.created_at AS charged_at, c.gross_amount::text AS gross, e.execution_time_ms AS ms, p.tx_hash, h.amount::text AS held, h.release_at
         FROM executions e JOIN payments p ON p.id = e.payment_id JOIN escrow_holds h ON h.transaction_id = e.transaction_id
         JOIN transactions c ON c.id = e.transaction_id WHERE e.id = $1`,
      [call.requestId],
    );
    const at = (type: string) => t.events.find((e: Event) => e.type === type);
    // A sync run's rows are written when it ends: it was received when the agent was called, at the latest.
    expect(at('received').at).toBe(at('running').at);
    expect(at('charged')).toMatchObject({ at: new Date(row.charged_at).toISOString(), amount: '0.011000' });
    expect(row.gross).toBe('11000');
    expect(at('completed').at).toBe(new Date(row.completed_at).toISOString());
    expect(row.ms).toBeGreaterThanOrEqual(30);
    expect(at('settled').txHash).toBe(row.tx_hash);
    expect(at('escrow_held')).toMatchObject({
      amount: '0.009500',
      detail: `until ${new Date(row.release_at).toISOString()}`,
    });
    expect(BigInt(row.held)).toBe(9_500n);
    // Oldest first, each offset from the reception.
    const offsets = t.events.map((e: Event) => e.offsetMs);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(offsets[0]).toBe(0);
    // By its public transaction id: the same timeline, without the request id (the payer's only).
    expect((await timeline(call.transactionId)).body.data).toEqual({ ...t, requestId: null });
  });

  it('a failed run: nothing charged, so no settlement, escrow or refund', async () => {
    const h = await x402Header(newWallet(), { amount: PRICE, payTo: env.api.config.platformWallet });
    const res = await env.api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: env.agentId, capabilityId: 'translate', input: { text: 'hi', mode: 'fail' } },
      headers: { [h.name]: h.value },
    });
    expect(res.status).toBe(502);
    const [{ id }] = await env.ds.query(
      `SELECT id FROM executions WHERE agent_id = $1 AND status = 'failed' ORDER BY created_at DESC LIMIT 1`,
      [env.agentId],
    );
    const t = (await timeline(id)).body.data;
    expect(t).toMatchObject({ requestId: id, transactionId: null, status: 'failed' });
    expect(types(t.events)).toEqual(['received', 'running', 'failed']);
  });

  it('a dispute the client wins: disputed, resolved with its outcome, and the refund issued to the payer', async () => {
    const call = await paidExecute(env.api, env.agentId, newWallet(), PRICE);
    const filed = await fileDispute(env.api, call);
    expect(filed.status).toBe(201);
    expect((await resolveDispute(env.api, filed.body.data.disputeId, 'client_wins')).status).toBe(200);
    const t = (await timeline(call.transactionId)).body.data;
    expect(types(t.events)).toEqual(
      expect.arrayContaining(['escrow_held', 'disputed', 'dispute_resolved', 'refund_issued']),
    );
    const [refund] = await env.ds.query(`SELECT amount::text, reason FROM refunds WHERE transaction_id = $1`, [
      call.transactionId,
    ]);
    const issued = t.events.find((e: Event) => e.type === 'refund_issued');
    expect(issued).toMatchObject({ detail: 'dispute', amount: `0.${refund.amount.padStart(6, '0')}` });
    expect(t.events.find((e: Event) => e.type === 'dispute_resolved').detail).toBe('client_wins');
    const order = types(t.events);
    expect(order.indexOf('disputed')).toBeLessThan(order.indexOf('dispute_resolved'));
  });

  it('bad and unknown ids are refused in the envelope', async () => {
    for (const [id, status, code] of [
      ['nope', 400, 'VALIDATION_ERROR'],
      ['req_%00abcdefgh', 400, 'VALIDATION_ERROR'],
      ['req_doesnotexist1', 404, 'EXECUTION_NOT_FOUND'],
      ['tx_doesnotexist12', 404, 'EXECUTION_NOT_FOUND'],
    ] as const) {
      const r = await timeline(id);
      expect({ id, status: r.status, code: r.body.error?.code }).toEqual({ id, status, code });
    }
  });
});
