import { Browser } from 'playwright-core';
import { startOrchestratorAgent, RunningOrchestrator } from '../../examples/orchestrator-agent';
import { TestAgentServer } from '../support/agent-server';
import { startApi, ApiHarness } from '../support/api-harness';
import { CONSOLE_BUILD, fitsWidth, launchBrowser, openPage, screenshot, seriousViolations } from '../support/browser';
import { orchestrateCapability, registerAgent } from '../support/factories';
import { openSse, SseStream } from '../support/sse';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const ROOT_COST = 21_000n; // 0.001 + the orchestrator's 0.020
const CALLS = 3; // translator calls from the chain's budget, 0.011 each

/**
 * The console's chain page in Debian's Chromium: the trace tree with each node's cost and the
 * budget left after it, the timeline, and the costs by agent and by depth, all summing to the total.
 */
describe('console: chain page (browser)', () => {
  let api: ApiHarness;
  let translator: TestAgentServer;
  let orchestrator: RunningOrchestrator;
  let browser: Browser;
  let chainId: string;
  let feed: SseStream;
  let plainTransactionId: string;

  beforeAll(async () => {
    translator = await new TestAgentServer().start();
    api = await startApi({ CONSOLE_DIR: CONSOLE_BUILD, OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    orchestrator = await startOrchestratorAgent({ platformUrl: api.baseUrl });
    const translatorId = (
      await registerAgent(api, newWallet(), { name: 'Chain Translator', endpoints: { execution: translator.url } })
    ).body.data.id;
    const orchestratorId = (
      await registerAgent(api, newWallet(), {
        name: 'Chain Orchestrator',
        endpoints: { execution: orchestrator.url },
        capabilities: [orchestrateCapability()],
      })
    ).body.data.id;
    orchestrator.serve(orchestratorId);
    // Watching the live feed while the chain runs: none of its calls may show there.
    feed = await openSse(`${api.baseUrl}/api/v1/feed/executions`);
    const pay = await x402Header(newWallet(), { amount: ROOT_COST + 1_000_000n, payTo: api.config.platformWallet });
    const calls = Array.from({ length: CALLS }, (_, i) => ({
      targetAgentId: translatorId,
      capabilityId: 'translate',
      input: { text: `call ${i}` },
    }));
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: orchestratorId, capabilityId: 'orchestrate', input: { calls }, chain: { budget: '1.00' } },
      headers: { [pay.name]: pay.value },
    });
    expect(res.status).toBe(200);
    chainId = res.body.data.chain.chainId;
    const plainPay = await x402Header(newWallet(), { amount: 11_000n, payTo: api.config.platformWallet });
    const plain = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: translatorId, capabilityId: 'translate', input: { text: 'outside the chain' } },
      headers: { [plainPay.name]: plainPay.value },
    });
    expect(plain.status).toBe(200);
    plainTransactionId = plain.body.data.transactionId;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    feed?.close();
    await browser?.close();
    await orchestrator?.stop();
    await api?.close();
    await translator?.stop();
  });

  it('the tree, the timeline and the totals by agent and by depth, whose costs sum to the total', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const page = await openPage(browser, viewport);
      await page.goto(`${api.baseUrl}/chains/${chainId}`);
      await page.getByTestId('chain-tree').waitFor();
      const nodes = page.getByTestId('chain-node');
      expect(await nodes.count()).toBe(1 + CALLS);
      expect(await page.locator('[data-testid="chain-node"][data-depth="1"]').count()).toBe(CALLS);
      const costs = (await page.getByTestId('node-cost').allTextContents()).map((c) => BigInt(c.replace('.', '')));
      expect(costs).toEqual([ROOT_COST, ...Array(CALLS).fill(11_000n)]);
      const total = costs.reduce((s, c) => s + c, 0n);
      expect(await page.getByTestId('chain-total').textContent()).toBe((Number(total) / 1e6).toFixed(6));
      // The budget left after each call, in the order they ended: 1.00 less 0.011 per call.
      const left = (await page.getByTestId('node-left').allTextContents()).sort().reverse();
      expect(left).toEqual(Array.from({ length: CALLS }, (_, i) => (1 - 0.011 * (i + 1)).toFixed(6)));
      expect(await page.getByTestId('gantt').getByRole('listitem').count()).toBe(1 + CALLS);
      const byAgent = await page.getByTestId('by-agent').locator('tbody tr').allTextContents();
      expect(byAgent).toEqual(['Chain Orchestrator10.021000', `Chain Translator${CALLS}0.033000`]);
      const byDepth = await page.getByTestId('by-depth').locator('tbody tr').allTextContents();
      expect(byDepth).toEqual(['010.021000', `1${CALLS}0.033000`]);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'chain', viewport);
      await page.context().close();
    }
  });

  it('the live feed shows the execution outside the chain and none of the calls in it', async () => {
    await feed.next((e) => (e.data as { transactionId?: string }).transactionId === plainTransactionId, 2_000);
    const executions = feed.events.filter((e) => e.event === 'execution');
    expect(executions.map((e) => (e.data as { transactionId: string }).transactionId)).toEqual([plainTransactionId]);
  });

  it("a visitor's tree links each call by its public transaction id, whose page shows its timeline and no request id", async () => {
    const page = await openPage(browser, 'desktop');
    await page.goto(`${api.baseUrl}/chains/${chainId}`);
    await page.getByTestId('chain-tree').waitFor();
    const links = page.getByTestId('chain-node').getByRole('link', { name: 'execution' });
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(Array.from({ length: 1 + CALLS }, () => expect.stringMatching(/^\/executions\/tx_/)));
    await links.nth(1).click();
    const steps = page.getByTestId('timeline').locator('li');
    await steps.first().waitFor();
    expect(new URL(page.url()).pathname).toBe(hrefs[1]);
    expect(await steps.evaluateAll((li) => li.map((l) => l.getAttribute('data-type')))).toEqual(
      expect.arrayContaining(['completed', 'charged']),
    );
    expect(await page.content()).not.toContain('req_');
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('an unknown chain shows the error', async () => {
    const page = await openPage(browser, 'desktop');
    await page.goto(`${api.baseUrl}/chains/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('alert').first().waitFor();
    expect(await page.getByRole('alert').first().textContent()).toContain('NOT_FOUND');
    await page.context().close();
  });
});
