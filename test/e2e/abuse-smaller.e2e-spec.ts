import { createHash, createHmac, randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { canonicalJson } from '@app/json-schema';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { fileDispute, paidExecute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet, walletHeaders } from '../support/wallets';

const PRICE = 11_000n;

/**
 * Issue 29, item 6 (smaller findings), as an attacker tried them. The others of the item are where
 * their machinery is tested: redacted chain tokens and client signatures in test/e2e/http, the
 * metrics token apart from the admin key and the worker's port on loopback in test/e2e/observability.
 */
describe('abuse: webhook secrets and public evidence (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let owner: Wallet;
  let agentId: string;
  let ts = Date.now();

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    ds = api.app.get(DataSource);
    owner = newWallet();
    agentId = (
      await registerAgent(api, owner, {
        endpoints: { execution: agentServer.url },
        capabilities: [capabilityPayload()],
      })
    ).body.data.id;
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  const subscribe = async (secret: string) =>
    api.request('POST', '/api/v1/webhooks', {
      body: { agentId, url: 'https://hooks.example.com/agora', events: ['execution.completed'], secret },
      headers: await walletHeaders(owner, agentId, 'POST /api/v1/webhooks', ++ts),
    });

  it('refuses a whsec_ secret that is not base64 of a usable key (it signed with an empty HMAC key): 400, nothing stored', async () => {
    const before = (await ds.query(`SELECT count(*)::int AS n FROM webhook_subscriptions`))[0].n;
    for (const secret of [
      'whsec_!!!!not-base64-at-all-but-long-enough!!!!', // Node decoded this to an empty key
      `whsec_${randomBytes(32).toString('base64url')}-_`, // the URL-safe alphabet
      `whsec_${randomBytes(8).toString('base64')}AAAAAAAAAAAA`, // canonical but a 17-byte key
      `whsec_${randomBytes(32).toString('base64').replace(/=+$/, '')}`, // padding stripped
    ]) {
      const res = await subscribe(secret);
      expect([secret, res.status, res.body.error?.code]).toEqual([secret, 400, 'VALIDATION_ERROR']);
      expect(JSON.stringify(res.body)).toContain('whsec_');
    }
    expect((await ds.query(`SELECT count(*)::int AS n FROM webhook_subscriptions`))[0].n).toBe(before);
    expect((await subscribe(`whsec_${randomBytes(32).toString('base64')}`)).status).toBe(201);
  });

  it("a dictionary of guessed outputs no longer matches the public evidence; the payer's key does", async () => {
    const call = await paidExecute(api, agentId, newWallet(), PRICE, { text: 'hola' });
    const filed = (await fileDispute(api, call)).body.data;
    const facts = (await api.request('GET', `/api/v1/disputes/${filed.disputeId}`)).body.data.platformEvidence.facts;
    const [exec] = await ds.query(`SELECT output FROM executions WHERE id = $1`, [call.requestId]);
    // The attack: three guesses, the true output among them, hashed as the evidence used to be.
    const guesses = [{ text: 'hello' }, exec.output, { text: 'bonjour' }];
    const sha = (v: unknown) => createHash('sha256').update(canonicalJson(v)).digest('hex');
    expect(guesses.map(sha)).not.toContain(facts.outputHash);
    expect(sha({ text: 'hola' })).not.toBe(facts.inputHash);
    // The parties check it: HMAC-SHA256 under the key the payer got when it filed.
    const keyed = (v: unknown) =>
      createHmac('sha256', Buffer.from(filed.evidenceKey, 'hex'))
        .update(createHash('sha256').update(canonicalJson(v)).digest('hex'))
        .digest('hex');
    expect(guesses.map(keyed).indexOf(facts.outputHash)).toBe(1);
    expect(keyed({ text: 'hola' })).toBe(facts.inputHash);
  });
});
