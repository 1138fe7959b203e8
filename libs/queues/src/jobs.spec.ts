import { JOB_NAMES, JOB_QUEUE, jobId, QUEUES } from './jobs';

describe('job contracts', () => {
  it('routes every job to a known queue', () => {
    for (const name of JOB_NAMES) expect(Object.values(QUEUES)).toContain(JOB_QUEUE[name]);
  });

  it('builds deterministic ids without ":" (BullMQ forbids it)', () => {
    expect(jobId('auth-messages.prune', 42)).toBe('auth-messages_prune-42');
    expect(jobId('auth-messages.prune', 'a:b')).toBe('auth-messages_prune-a_b');
    expect(jobId('auth-messages.prune', 1)).toBe(jobId('auth-messages.prune', 1));
  });
});
