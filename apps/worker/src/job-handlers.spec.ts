import { JOB_NAMES } from '@app/queues';
import { JobHandlerRegistry } from './job-handlers';

describe('JobHandlerRegistry', () => {
  it('refuses to boot with a job that has no handler', () => {
    const registry = new JobHandlerRegistry();
    expect(() => registry.assertComplete()).toThrow(/missing \[auth-messages.prune, withdrawal.process, refund.process, escrow.release, escrow.release-due, payment.settle, execution.run, event.fanout, webhook.deliver\]/);
  });

  it('refuses to boot with a job handled twice', () => {
    const registry = new JobHandlerRegistry();
    registry.register('auth-messages.prune', async () => 1);
    registry.register('auth-messages.prune', async () => 2);
    expect(() => registry.assertComplete()).toThrow(/duplicated \[auth-messages.prune\]/);
  });

  it('dispatches each job to its one handler', async () => {
    const registry = new JobHandlerRegistry();
    for (const name of JOB_NAMES) registry.register(name, async (job) => `handled ${job.name}`);
    expect(() => registry.assertComplete()).not.toThrow();
    await expect(registry.dispatch({ name: 'auth-messages.prune', data: { requestedAt: 'x' } })).resolves.toBe('handled auth-messages.prune');
    await expect(registry.dispatch({ name: 'nope', data: {} })).rejects.toThrow(/No handler/);
  });
});
