import { join } from 'node:path';
import { startApi, ApiHarness } from '../support/api-harness';
import { builtApp, RunningProcess, startProcess } from '../support/processes';

/**
 * `npm run demo` (scripts/demo.js) end to end against a real api and worker: it drives agora only
 * through the SDK (@agora/sdk, its built package) and its example agents verify calls with the
 * agent kit. It registers, discovers, executes, opens a chain whose sub-call the orchestrator pays
 * from the budget, and sees the leftover refunded.
 */
describe('npm run demo, on the SDK (e2e)', () => {
  let api: ApiHarness;
  let worker: RunningProcess;

  beforeAll(async () => {
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    worker = startProcess(builtApp('worker'), { ...api.env, LOG_LEVEL: 'warn', MAINTENANCE_INTERVAL_MS: '500' });
  }, 60_000);
  afterAll(async () => {
    worker.child.kill('SIGTERM');
    await worker.exited;
    await api.close();
  });

  it('runs every step and exits 0', async () => {
    const demo = startProcess(join(__dirname, '..', '..', 'scripts', 'demo.js'), { AGORA_URL: api.baseUrl });
    const code = await demo.exited;
    const out = demo.output();
    // On failure, the demo's whole output is the diff.
    expect(code === 0 ? 'exited 0' : `exited ${code}:\n${out}`).toBe('exited 0');
    expect(out).toMatch(/\[2\] registered agent [0-9a-f-]{36}, paid 0\.100000 USDC/);
    expect(out).toMatch(/\[4\] execute \(client 0x[0-9a-fA-F]{40} pays 0\.011000 USDC with x402\)/);
    expect(out).toMatch(/"translation": "HELLO FROM THE DEMO"/);
    expect(out).toMatch(/\[8\] root execute with chain \{budget: 0\.50\}: paid 0\.521000/);
    expect(out).toMatch(/\[10\] another call with the chain's token \(paid from the budget, 0\.478000 left\)/);
    expect(out).toMatch(/"translation": "PAID FROM THE BUDGET"/);
    expect(out).toMatch(/\[11\] chain completed: trace tree, and the refund of what was left\n/);
    expect(out).toMatch(/"amount": "0\.478000"/);
  }, 60_000);
});
