import { DelayedError, UnrecoverableError } from 'bullmq';
import { Metrics } from '@app/metrics';
import { JOB_NAMES, JOB_QUEUE, QUEUES, QueueName } from '@app/queues';
import { JOB_DEFERRED, JobHandlerRegistry } from './job-handlers';
import { ExecutionsProcessor } from './processors/executions.processor';
import { MaintenanceProcessor } from './processors/maintenance.processor';
import { MoneyProcessor } from './processors/money.processor';
import { WebhooksProcessor } from './processors/webhooks.processor';

/** Every job registered on the queue that carries it, except those in `moved` (name -> queue). */
function registryWith(moved: Partial<Record<string, QueueName>> = {}): {
  registry: JobHandlerRegistry;
  calls: string[];
} {
  const registry = new JobHandlerRegistry();
  const calls: string[] = [];
  for (const name of JOB_NAMES) {
    registry.register(moved[name] ?? JOB_QUEUE[name], name, async (job) => {
      calls.push(job.name);
      return `handled ${job.name}`;
    });
  }
  return { registry, calls };
}

describe('JobHandlerRegistry', () => {
  it('refuses to boot with a job that has no handler', () => {
    const registry = new JobHandlerRegistry();
    expect(() => registry.assertComplete()).toThrow(
      /missing \[auth-messages.prune, idempotency-keys.prune, execution-payloads.prune, agent-health.prune, invariant-checks.prune, payer-spend.mature, withdrawal.process, refund.process, escrow.release, escrow.release-due, payment.settle, dispute.timeout, registration.recover, chain.resend, chain.finish, chain.release-node, execution.run, event.fanout, webhook.deliver\]/,
    );
  });

  it('refuses to boot with a job handled twice', () => {
    const registry = new JobHandlerRegistry();
    registry.register(QUEUES.maintenance, 'auth-messages.prune', async () => 1);
    registry.register(QUEUES.maintenance, 'auth-messages.prune', async () => 2);
    expect(() => registry.assertComplete()).toThrow(/duplicated \[auth-messages.prune\]/);
  });

  it('refuses to boot with a handler registered by the processor of a queue that does not carry the job', () => {
    const { registry } = registryWith({ 'payment.settle': QUEUES.executions, 'webhook.deliver': QUEUES.maintenance });
    expect(() => registry.assertComplete()).toThrow(
      /on the wrong queue \[payment.settle registered on executions, carried by money; webhook.deliver registered on maintenance, carried by webhooks\]/,
    );
  });

  it('records the queue of a scoped registrar', () => {
    const registry = new JobHandlerRegistry();
    const executions = registry.forQueue(QUEUES.executions);
    for (const name of JOB_NAMES)
      (name === 'payment.settle' ? executions : registry.forQueue(JOB_QUEUE[name])).register(name, async () => name);
    expect(() => registry.assertComplete()).toThrow(/\[payment.settle registered on executions, carried by money\]/);
  });

  it('dispatches each job to its one handler', async () => {
    const { registry } = registryWith();
    expect(() => registry.assertComplete()).not.toThrow();
    await expect(
      registry.dispatch(QUEUES.maintenance, { name: 'auth-messages.prune', data: { requestedAt: 'x' } }),
    ).resolves.toBe('handled auth-messages.prune');
    await expect(registry.dispatch(QUEUES.money, { name: 'payment.settle', data: { paymentId: 'p' } })).resolves.toBe(
      'handled payment.settle',
    );
    await expect(registry.dispatch(QUEUES.maintenance, { name: 'nope', data: {} })).rejects.toThrow(/No handler/);
  });

  it('refuses, without retries and without calling the handler, a job that arrives on a queue that does not carry it', async () => {
    const { registry, calls } = registryWith();
    const wrong = registry.dispatch(QUEUES.executions, { name: 'payment.settle', data: { paymentId: 'p' } });
    await expect(wrong).rejects.toThrow(UnrecoverableError);
    await expect(wrong).rejects.toThrow(
      'Job payment.settle arrived on queue executions; it is carried by money and handled on money',
    );
    await expect(
      registry.dispatch('some-other-queue', { name: 'execution.run', data: { executionId: 'e' } }),
    ).rejects.toThrow(UnrecoverableError);
    expect(calls).toEqual([]);
  });

  it('refuses a job whose handler was registered on another queue, even when it arrives on the queue that carries it', async () => {
    const { registry, calls } = registryWith({ 'payment.settle': QUEUES.executions });
    await expect(registry.dispatch(QUEUES.money, { name: 'payment.settle', data: { paymentId: 'p' } })).rejects.toThrow(
      /arrived on queue money; it is carried by money and handled on executions/,
    );
    await expect(
      registry.dispatch(QUEUES.executions, { name: 'payment.settle', data: { paymentId: 'p' } }),
    ).rejects.toThrow(UnrecoverableError);
    expect(calls).toEqual([]);
  });

  it("the worker's processors register every job, each on the queue that carries it", async () => {
    const registry = new JobHandlerRegistry();
    const settled: string[] = [];
    const unused = {} as never;
    new MaintenanceProcessor(registry, unused, unused, unused, unused, unused, unused);
    new MoneyProcessor(
      registry,
      unused,
      unused,
      unused,
      unused,
      { execute: async (paymentId: string) => settled.push(paymentId) } as never,
      unused,
      unused,
      unused,
      unused,
      unused,
    );
    new ExecutionsProcessor(registry, unused, unused, unused, unused);
    new WebhooksProcessor(registry, unused, unused, unused, unused, unused);
    expect(() => registry.assertComplete()).not.toThrow();
    await registry.dispatch(QUEUES.money, { name: 'payment.settle', data: { paymentId: 'pay_1' } });
    expect(settled).toEqual(['pay_1']);
  });

  it('a handler that put its job in line (JOB_DEFERRED) ends it with DelayedError: neither completed nor failed, counted as delayed', async () => {
    const metrics = new Metrics({ process: 'worker', defaultMetrics: false });
    const registry = new JobHandlerRegistry(metrics);
    for (const name of JOB_NAMES)
      registry.register(JOB_QUEUE[name], name, async () => (name === 'execution.run' ? JOB_DEFERRED : name));
    await expect(
      registry.dispatch(QUEUES.executions, { name: 'execution.run', data: { executionId: 'e' } }),
    ).rejects.toThrow(DelayedError);
    await expect(registry.dispatch(QUEUES.money, { name: 'payment.settle', data: { paymentId: 'p' } })).resolves.toBe(
      'payment.settle',
    );
    const text = await metrics.text();
    expect(text).toMatch(
      /agora_job_duration_seconds_count\{process="worker",queue="executions",job="execution.run",outcome="delayed"\} 1/,
    );
    expect(text).not.toMatch(/outcome="failed"/);
  });
});
