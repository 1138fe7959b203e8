import { Wallet } from 'ethers';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { OutboxService } from '@app/outbox';
import { startApi, ApiHarness } from '../support/api-harness';
import { registerAgent } from '../support/factories';
import { newWallet, walletHeaders } from '../support/wallets';

/** `GET /events`: an agent's domain events behind its wallet signature, oldest first, paged with a cursor. */
describe('Agent events API (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let owner: Wallet;
  let other: Wallet;
  let agentId: string;
  let otherId: string;
  let ts = Date.now();
  const read = async (query = '', wallet = owner, id = agentId) =>
    api.request('GET', `/api/v1/events${query}`, {
      headers: await walletHeaders(wallet, id, 'GET /api/v1/events', ++ts),
    });
  const emit = (id: string, n: number) =>
    ds.transaction((m) => api.app.get(OutboxService).record(m, 'escrow.released', id, { n }));

  beforeAll(async () => {
    api = await startApi();
    ds = api.app.get(DataSource);
    owner = newWallet();
    other = newWallet();
    agentId = (await registerAgent(api, owner)).body.data.id;
    otherId = (await registerAgent(api, other)).body.data.id;
    for (let n = 1; n <= 5; n++) {
      await emit(agentId, n);
      await emit(otherId, 100 + n);
    }
  });
  afterAll(() => api.close());

  it('needs the signature of the agent it reads: none is 401, another wallet for the agent is refused', async () => {
    expect((await api.request('GET', '/api/v1/events')).status).toBe(401);
    const forged = await read('', other, agentId);
    expect([401, 403]).toContain(forged.status);
    expect(forged.body.success).toBe(false);
  });

  it("answers only the signer's events, oldest first, and pages with the cursor without gaps or repeats", async () => {
    const first = await read('?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.events.map((e: { data: { n: number } }) => e.data.n)).toEqual([1, 2]);
    expect(first.body.data.events[0]).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: 'escrow.released',
      cursor: expect.stringMatching(/^\d+\.evt_/),
    });
    expect(first.body.data.nextCursor).toBe(first.body.data.events[1].cursor);
    const second = await read(`?limit=2&after=${first.body.data.nextCursor}`);
    expect(second.body.data.events.map((e: { data: { n: number } }) => e.data.n)).toEqual([3, 4]);
    const third = await read(`?after=${second.body.data.nextCursor}`);
    expect(third.body.data.events.map((e: { data: { n: number } }) => e.data.n)).toEqual([5]);
    // Nothing new: the same cursor to poll with again.
    const empty = await read(`?after=${third.body.data.nextCursor}`);
    expect(empty.body.data).toEqual({ events: [], nextCursor: third.body.data.nextCursor });
    const theirs = await read('', other, otherId);
    expect(theirs.body.data.events.map((e: { data: { n: number } }) => e.data.n)).toEqual([101, 102, 103, 104, 105]);
  });

  it('never lists past a transaction still open: an event committed late is listed in its place, not skipped', async () => {
    const start = (await read()).body.data.nextCursor;
    const open = ds.createQueryRunner();
    await open.connect();
    await open.startTransaction();
    try {
      // Recorded first (an earlier created_at), committed last.
      await api.app.get(OutboxService).record(open.manager, 'escrow.released', agentId, { n: 6 });
      await emit(agentId, 7);
      const held = await read(`?after=${start}`);
      expect(held.body.data).toEqual({ events: [], nextCursor: start });
      await open.commitTransaction();
    } finally {
      await open.release();
    }
    const listed = await read(`?after=${start}`);
    expect(listed.body.data.events.map((e: { data: { n: number } }) => e.data.n)).toEqual([6, 7]);
  });

  it("is not held back by another application's open transaction (a backup's pg_dump): only agora's own write events", async () => {
    const start = (await read()).body.data.nextCursor;
    const backup = new Client({ connectionString: api.databaseUrl, application_name: 'pg_dump' });
    await backup.connect();
    try {
      await backup.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await backup.query('SELECT count(*) FROM outbox_events');
      await emit(agentId, 8);
      const listed = await read(`?after=${start}`);
      expect(listed.body.data.events.map((e: { data: { n: number } }) => e.data.n)).toEqual([8]);
    } finally {
      await backup.end();
    }
  });

  it('refuses a malformed cursor and a limit out of range with 400', async () => {
    for (const query of ['?after=nope', '?after=12.notanevent', '?limit=0', '?limit=101', '?limit=x']) {
      const res = await read(query);
      expect({ query, status: res.status, code: res.body.error?.code }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
  });
});
