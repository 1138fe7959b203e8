import { Logger } from '@nestjs/common';
import { OutboxEventsRepository } from './outbox-events.repository';
import { EVENT_TYPES, OutboxService } from './outbox.service';

describe('OutboxService: one log line per domain event', () => {
  const manager = { query: jest.fn().mockResolvedValue([]) };
  // The insert takes the caller's manager; the repository's own runner is for reads.
  const repo = new OutboxEventsRepository(null as never);
  let info: jest.SpyInstance;
  let warn: jest.SpyInstance;
  let error: jest.SpyInstance;
  beforeEach(() => {
    info = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('logs failures (an agent, a payout) as warnings and the rest at info, never as errors', async () => {
    const outbox = new OutboxService(repo);
    for (const type of EVENT_TYPES) await outbox.record(manager, type, 'agent-1', {});
    const named = (spy: jest.SpyInstance) => spy.mock.calls.map(([, msg]) => msg).sort();
    expect(named(warn)).toEqual(['agent.health_changed', 'execution.failed', 'withdrawal.failed']);
    expect(named(info)).toEqual([
      'dispute.filed',
      'dispute.resolved',
      'escrow.released',
      'execution.completed',
      'withdrawal.completed',
    ]);
    expect(error).not.toHaveBeenCalled();
  });

  it("names the event, its id and agent, adds the caller's extra fields, and leaves out free text", async () => {
    const id = await new OutboxService(repo).record(
      manager,
      'dispute.filed',
      'agent-2',
      { disputeId: 'dsp_1', requestId: 'req_1', reason: 'private words', note: 'x'.repeat(500) },
      { cost: '1.000000' },
    );
    const [fields, msg] = info.mock.calls[0];
    expect(msg).toBe('dispute.filed');
    expect(fields).toEqual({
      event: 'dispute.filed',
      eventId: id,
      agentId: 'agent-2',
      disputeId: 'dsp_1',
      executionId: 'req_1',
      note: `${'x'.repeat(200)}...`,
      cost: '1.000000',
    });
  });
});
