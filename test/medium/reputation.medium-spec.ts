import { GetAgentAnalytics } from '@app/analytics';
import { newId } from '@app/common';
import { TransactionRunner } from '@app/database';
import { GetReputation, REPUTATION_DELTAS, ReputationRecorder } from '@app/reputation';
import { Domain, seedAgent, startDomain } from '../support/medium';

/** The reputation event model as the disputes issue will use it, and the outcomes that must not count, called directly. */
describe('reputation (medium)', () => {
  let domain: Domain;

  beforeAll(async () => {
    // The contract's literal deltas (resolutions §7, REPUTATION_MODEL=spec); the weighted model: reputation-*.e2e.
    domain = await startDomain({ REPUTATION_MODEL: 'spec' });
  });
  afterAll(async () => {
    await domain.close();
  });

  const record = (agentId: string, type: keyof typeof REPUTATION_DELTAS, ref = newId('dsp')) =>
    domain
      .get(TransactionRunner)
      .pipelined((sql) =>
        domain.get(ReputationRecorder).record(sql, agentId, type, ref, { payer: null, stake: 1_000_000n }),
      );

  it('the dispute deltas of the spec: filed -5, agent_wins +2, client_wins -5, split 0; counted in the breakdown and analytics', async () => {
    const agentId = await seedAgent(domain, { endpoint: 'http://127.0.0.1:9/' });
    expect(await record(agentId, 'dispute.filed')).toBe(45);
    expect(await record(agentId, 'dispute.agent_wins')).toBe(47);
    expect(await record(agentId, 'dispute.filed')).toBe(42);
    expect(await record(agentId, 'dispute.client_wins')).toBe(37);
    expect(await record(agentId, 'dispute.filed')).toBe(32);
    expect(await record(agentId, 'dispute.split')).toBe(32);
    const view = await domain.get(GetReputation).execute(agentId);
    expect(view).toMatchObject({
      score: 32,
      tier: 'At Risk',
      breakdown: { successfulExecutions: 0, failedExecutions: 0, disputesWon: 1, disputesLost: 1 },
    });
    expect(view.recentEvents.map((e) => [e.type, e.delta])).toEqual([
      ['dispute.split', 0],
      ['dispute.filed', -5],
      ['dispute.client_wins', -5],
      ['dispute.filed', -5],
      ['dispute.agent_wins', 2],
      ['dispute.filed', -5],
    ]);
    for (const period of ['all', 'week'] as const) {
      const a = await domain.get(GetAgentAnalytics).execute(agentId, period);
      // Three filed, three decided (a split is decided too, neither won nor lost).
      expect(a.disputes).toEqual({ total: 3, won: 1, lost: 1, pending: 0, rate: 0 });
      expect(a.reputation).toEqual({ current: 32, change: -18, tier: 'At Risk' });
    }
  });

  it('an unknown agent records nothing and answers null', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const events = async () =>
      (await domain.ds.query(`SELECT count(*)::int AS n FROM reputation_events`))[0].n as number;
    const before = await events();
    expect(await record(unknown, 'execution.failed')).toBeNull();
    expect(await events()).toBe(before);
  });
});
