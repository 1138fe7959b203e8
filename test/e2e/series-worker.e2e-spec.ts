import { startApiWithAgent, ApiWithAgent } from '../support/api-with-agent';
import { paidExecute } from '../support/disputes';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet } from '../support/wallets';

/**
 * The worker process rolls the series up on its own timer (SERIES_INTERVAL_MS): a paid run shows
 * in the platform's series without anyone asking, and a worker killed (SIGKILL) and started again
 * counts each run once.
 */
describe('series roll-up in the worker (e2e)', () => {
  let env: ApiWithAgent;
  let worker: RunningProcess | undefined;

  beforeAll(async () => {
    env = await startApiWithAgent();
  });
  afterAll(async () => {
    worker?.child.kill('SIGKILL');
    await env.stop();
  });

  const startWorker = () =>
    startProcess(builtApp('worker'), { ...env.api.env, SERIES_INTERVAL_MS: '200', SERIES_LAG_MS: '0' });
  /** The platform's executions and volume over the last two hours (the runs may straddle an hour's end). */
  const thisHour = async () => {
    const points = (await env.api.request('GET', '/api/v1/analytics/platform/series')).body.data.points.slice(-2);
    const sum = (k: 'executions' | 'volume') => points.reduce((s: number, p: never) => s + Number(p[k]), 0);
    return { executions: sum('executions'), volume: sum('volume').toFixed(6) };
  };

  it('a paid run appears in the series by the worker alone; after a kill -9 and a restart it still counts once', async () => {
    worker = startWorker();
    await paidExecute(env.api, env.agentId, newWallet(), 11_000n);
    await waitFor(async () => (await thisHour()).executions === 1, 'the worker rolled the run up');
    expect((await thisHour()).volume).toBe('0.011000');

    worker.child.kill('SIGKILL');
    await new Promise((resolve) => worker!.child.once('exit', resolve));
    await paidExecute(env.api, env.agentId, newWallet(), 11_000n);
    worker = startWorker();
    await waitFor(async () => (await thisHour()).executions === 2, 'the restarted worker rolled the second run up');
    const [cursor] = await env.ds.query(`SELECT min(complete_to) AS t FROM series_cursor`);
    // Once it has read past both runs, they are still counted once each.
    await waitFor(async () => {
      const [now] = await env.ds.query(`SELECT min(complete_to) AS t FROM series_cursor`);
      return new Date(now.t) > new Date(cursor.t);
    }, 'another roll-up after the second run');
    expect(await thisHour()).toMatchObject({ executions: 2, volume: '0.022000' });
  });
});
