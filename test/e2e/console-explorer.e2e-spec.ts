import { existsSync } from 'node:fs';
import { Wallet } from 'ethers';
import { Browser } from 'playwright-core';
import { DataSource } from 'typeorm';
import { TestAgentServer } from '../support/agent-server';
import { startApi, ApiHarness } from '../support/api-harness';
import { CONSOLE_BUILD, fitsWidth, launchBrowser, openPage, screenshot, seriousViolations } from '../support/browser';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

/**
 * The console's explorer and agent pages in Debian's Chromium, against the real api with agents
 * registered and executions paid by this test: the figures on the page are the ones the test made.
 */
describe('console: explorer and agent pages (browser)', () => {
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let browser: Browser;
  const agents: { id: string; name: string }[] = [];
  const PRICE = 11_000n; // 0.001 platform fee + 0.010 agent fee
  const PAID = 3;
  /** Executions charged so far (each +1 to the score: no payer here pays more than three times a day). */
  let charged = 0;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    // The spec's deltas for every paying wallet: each charge shows as +1 (the weighted model: reputation-sybil).
    api = await startApi({
      CONSOLE_DIR: CONSOLE_BUILD,
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      REPUTATION_MODEL: 'spec',
    });
    for (const [name, capability] of [
      ['Polyglot Translator', capabilityPayload()],
      [
        'Invoice Summarizer',
        capabilityPayload({ id: 'summarize', name: 'Summarize', description: 'Summarizes invoices and receipts' }),
      ],
    ] as const) {
      const res = await registerAgent(api, newWallet(), {
        name,
        endpoints: { execution: agentServer.url },
        capabilities: [capability],
      });
      expect(res.status).toBe(201);
      agents.push({ id: res.body.data.id, name });
    }
    const client = new Wallet(Wallet.createRandom().privateKey);
    for (let i = 0; i < PAID; i++) {
      const h = await x402Header(client, { amount: PRICE, payTo: api.config.platformWallet });
      const res = await api.request('POST', '/api/v1/execute', {
        body: { targetAgentId: agents[0].id, capabilityId: 'translate', input: { text: `bonjour ${i}` } },
        headers: { [h.name]: h.value },
      });
      expect(res.status).toBe(200);
      charged++;
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await agentServer?.stop();
  });

  it('the explorer shows the totals the test made, the leaderboard and search, with no serious axe violation', async () => {
    const [{ agents: total, volume }] = await api.app
      .get(DataSource)
      .query(
        `SELECT (SELECT count(*) FROM agents)::int AS agents, (SELECT sum(gross_amount) FROM transactions)::text AS volume`,
      );
    expect(total).toBe(2);
    expect(volume).toBe(String(PRICE * BigInt(PAID)));
    for (const viewport of ['desktop', 'phone'] as const) {
      const page = await openPage(browser, viewport);
      await page.goto(`${api.baseUrl}/`);
      await page.getByTestId('total-transactions').waitFor();
      expect(await page.getByTestId('total-agents').textContent()).toBe('2');
      expect(await page.getByTestId('total-transactions').textContent()).toBe(String(PAID));
      expect(await page.getByTestId('total-volume').textContent()).toBe('0.033000');
      const board = page.getByTestId('leaderboard');
      await board.getByRole('link', { name: 'Polyglot Translator' }).waitFor();
      expect(await board.getByRole('row').count()).toBe(3); // the header and two agents
      // The page's JSON twin: the calls it made, each a link.
      expect(await page.getByRole('link', { name: 'GET /api/v1/payments/stats' }).count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      expect(existsSync(await screenshot(page, 'explorer', viewport))).toBe(true);
      await page.context().close();
    }
  });

  it('the live feed shows an execution made while the page is open within 2 s, linked to its agent', async () => {
    const page = await openPage(browser, 'desktop');
    await page.goto(`${api.baseUrl}/`);
    await page.locator('[data-testid="feed-state"][data-state="live"]').waitFor();
    const h = await x402Header(new Wallet(Wallet.createRandom().privateKey), {
      amount: PRICE,
      payTo: api.config.platformWallet,
    });
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agents[0].id, capabilityId: 'translate', input: { text: 'live' } },
      headers: { [h.name]: h.value },
    });
    expect(res.status).toBe(200);
    charged++;
    const row = page.locator(`[data-transaction-id="${res.body.data.transactionId}"]`);
    await row.waitFor({ timeout: 2_000 });
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      expect.any(String),
      'Polyglot Translator',
      'translate',
      '0.011000',
      'completed',
      expect.stringMatching(/^0x[0-9a-f]{8}…$/),
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'explorer-live', 'desktop');
    await page.context().close();
  });

  it('search shows the answer of the recommend engine with relevance and matched capabilities, at a shareable URL', async () => {
    const page = await openPage(browser, 'desktop');
    await page.goto(`${api.baseUrl}/`);
    await page.getByLabel('Describe the task').fill('summarize my invoices');
    await page.getByRole('button', { name: 'Search' }).click();
    const results = page.getByTestId('results');
    await results.getByRole('link', { name: 'Invoice Summarizer' }).waitFor();
    expect(await results.locator('.chip').first().textContent()).toBe('summarize');
    expect(page.url()).toBe(`${api.baseUrl}/?q=summarize+my+invoices`);
    // The same URL opened afresh shows the same results.
    const again = await openPage(browser);
    await again.goto(page.url());
    await again.getByTestId('results').getByRole('link', { name: 'Invoice Summarizer' }).waitFor();
    await again.context().close();
    await page.context().close();
  });

  it('an agent page shows its capabilities with pricing and its reputation; an unknown agent shows the error', async () => {
    const page = await openPage(browser, 'phone');
    await page.goto(`${api.baseUrl}/`);
    await page.getByTestId('leaderboard').getByRole('link', { name: 'Polyglot Translator' }).click();
    await page.getByRole('heading', { level: 1, name: 'Polyglot Translator' }).waitFor();
    expect(page.url()).toBe(`${api.baseUrl}/agents/${agents[0].id}`);
    const caps = page.getByTestId('capabilities');
    await caps.getByText('per-request: 0.010000 USDC').waitFor();
    // Each charge an event of +1 from the score of 50.
    expect(await page.getByTestId('rep-score').textContent()).toBe(String(50 + charged));
    expect(await page.getByTestId('rep-events').getByRole('row').count()).toBe(1 + charged);
    expect(await fitsWidth(page)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'agent', 'phone');
    await page.goto(`${api.baseUrl}/agents/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('alert').first().waitFor();
    expect(await page.getByRole('alert').first().textContent()).toContain('NOT_FOUND');
    await page.context().close();
  });

  it("a path the console does not have: 404, and the console's not-found view leading back to the explorer", async () => {
    const page = await openPage(browser, 'phone');
    const res = await page.goto(`${api.baseUrl}/no-such-path`);
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('main').getByRole('link', { name: 'Back to the explorer' }).click();
    await page.getByTestId('total-transactions').waitFor();
    expect(page.url()).toBe(`${api.baseUrl}/`);
    await page.context().close();
  });
});
