import { createHash, createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { canonicalJson } from '@app/json-schema';
import { verifyAgoraSignature } from '@agora/sdk';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { fileDispute, paidExecute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet, walletHeaders } from '../support/wallets';

const PRICE = 11_000n;

/**
 * The dispute routes over HTTP: who may file (the payer's proof), respond (the agent's wallet) and
 * resolve (the admin key), every refusal with its status and code and nothing changed by it, the
 * reads, and the evidence the platform attaches. The money of each outcome: test/medium/disputes-*.medium-spec.ts.
 */
describe('Disputes: routes (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  const agentWallet = newWallet();
  const otherAgentWallet = newWallet();
  let agentId: string;
  let otherAgentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    ds = api.app.get(DataSource);
    const register = async (wallet: typeof agentWallet) => {
      const res = await registerAgent(api, wallet, {
        endpoints: { execution: agentServer.url },
        capabilities: [capabilityPayload()],
      });
      expect(res.status).toBe(201);
      return res.body.data.id as string;
    };
    agentId = await register(agentWallet);
    otherAgentId = await register(otherAgentWallet);
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  const execute = (payer = newWallet()) => paidExecute(api, agentId, payer, PRICE);

  describe('reads', () => {
    it('GET /disputes/:id: the Dispute resource with the evidence the platform holds, signed by the platform', async () => {
      const call = await execute(newWallet());
      const filed = (await fileDispute(api, call, { evidence: 'screenshot link' })).body.data;
      const id = filed.disputeId;
      expect(filed.evidenceKey).toMatch(/^[0-9a-f]{64}$/);
      const res = await api.request('GET', `/api/v1/disputes/${id}`);
      expect(res.status).toBe(200);
      const d = res.body.data;
      expect(d).toMatchObject({
        id,
        transactionId: call.transactionId,
        clientId: call.payer.address.toLowerCase(),
        agentId,
        status: 'pending',
        evidence: 'screenshot link',
        agentResponse: null,
        resolution: null,
        resolvedAt: null,
        frozenAmount: '0.009500',
        advancedAmount: '0.000000',
      });
      const [exec] = await ds.query(`SELECT input, output FROM executions WHERE id = $1`, [call.requestId]);
      const [payment] = await ds.query(
        `SELECT tx_hash FROM payments p JOIN transactions t ON t.payment_id = p.id WHERE t.id = $1`,
        [call.transactionId],
      );
      // Issue 29: keyed hashes, checkable by the parties only (the payer has the key from its filing).
      const sha = (v: unknown) =>
        createHmac('sha256', Buffer.from(filed.evidenceKey, 'hex'))
          .update(createHash('sha256').update(canonicalJson(v)).digest('hex'))
          .digest('hex');
      const facts = d.platformEvidence.facts;
      expect(facts.outputHash).not.toBe(createHash('sha256').update(canonicalJson(exec.output)).digest('hex'));
      expect(JSON.stringify(d)).not.toContain(filed.evidenceKey);
      // Public, so no request id (issue 52: the payer's only; with a header rebuilt from chain data it reads the output).
      expect(facts.requestId).toBeUndefined();
      expect(JSON.stringify(d)).not.toContain(call.requestId);
      expect(facts).toMatchObject({
        transactionId: call.transactionId,
        capabilityId: 'translate',
        status: 'completed',
        inputHash: sha({ text: 'bonjour' }),
        outputHash: sha(exec.output),
        agentError: null,
        cost: { agentFee: '0.010000', platformFee: '0.001000', pricingModel: 'per-request' },
        settlement: {
          status: 'settled',
          txHash: payment.tx_hash,
          network: 'base-sepolia',
          payer: call.payer.address.toLowerCase(),
        },
      });
      expect(exec.input).toEqual({ text: 'bonjour' });
      const key = (await api.request('GET', '/api/v1/platform/keys')).body.data.keys[0];
      expect(d.platformEvidence.attestation.keyId).toBe(key.kid);
      const attested = (f: unknown, purpose: 'attestation' | 'call' = 'attestation', subject = [call.transactionId]) =>
        verifyAgoraSignature(
          d.platformEvidence.attestation.signature,
          purpose,
          subject,
          canonicalJson(f),
          [key.publicKey],
          Infinity,
        );
      expect(attested(facts)).toBe(true);
      expect(attested({ ...facts, agentError: 'forged' })).toBe(false);
      // Labelled as an attestation: never a call to an agent.
      expect(attested(facts, 'call', [agentId, call.requestId])).toBe(false);
      expect((await api.request('GET', '/api/v1/disputes/dsp_doesnotexist00')).status).toBe(404);
      expect((await api.request('GET', '/api/v1/disputes/not-an-id')).status).toBe(400);
      // The agent's wallet gets the same key; another agent's wallet and an unsigned read do not.
      const keyUrl = `/api/v1/disputes/${id}/evidence-key`;
      const agentRead = await api.request('GET', keyUrl, { headers: await walletHeaders(agentWallet, agentId, null) });
      expect(agentRead.status).toBe(200);
      expect(agentRead.body.data).toEqual({
        disputeId: id,
        transactionId: call.transactionId,
        evidenceKey: filed.evidenceKey,
      });
      const other = await api.request('GET', keyUrl, {
        headers: await walletHeaders(otherAgentWallet, otherAgentId, null),
      });
      expect([other.status, other.body.error.code]).toEqual([403, 'FORBIDDEN']);
      expect(JSON.stringify(other.body)).not.toContain(filed.evidenceKey);
      expect((await api.request('GET', keyUrl)).status).toBe(401);
    });
  });
});
