import { Browser } from 'playwright-core';
import { DataSource } from 'typeorm';
import { TestAgentServer } from '../support/agent-server';
import { ApiHarness } from '../support/api-harness';
import { fitsWidth, launchBrowser, screenshot, seriousViolations, startConsoleApi } from '../support/browser';
import { pageWithWallet, signedInPage, signInOnPage, tableRows } from '../support/browser-wallet';
import { paidExecute, PaidCall } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

/**
 * The paying wallet's console in Debian's Chromium (issue 36): its executions with status, cost and
 * receipt, what it spent per day, the disputes it filed, and filing one from an execution, signed
 * by the wallet (a declined signature files nothing); another wallet sees none of it.
 */
describe('console: the buyer’s views (browser)', () => {
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let browser: Browser;
  let ds: DataSource;
  let agentId: string;
  const buyer = newWallet();
  const paid: PaidCall[] = [];
  let failedId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startConsoleApi({
      EXECUTION_TIMEOUT_MS: '1000',
    });
    ds = api.app.get(DataSource);
    agentId = (
      await registerAgent(api, newWallet(), {
        name: 'Buyer view agent',
        endpoints: { execution: agentServer.url },
        capabilities: [capabilityPayload()],
      })
    ).body.data.id;
    for (let i = 0; i < 3; i++) paid.push(await paidExecute(api, agentId, buyer, 11_000n));
    const h = await x402Header(buyer, { amount: 11_000n, payTo: api.config.platformWallet });
    await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'x', mode: 'fail' } },
      headers: { [h.name]: h.value },
    });
    [{ id: failedId }] = await ds.query(`SELECT id FROM executions WHERE lower(payer) = $1 AND status = 'failed'`, [
      buyer.address.toLowerCase(),
    ]);
    // One paid run two days back, so the spending chart has two days.
    await ds.query(`UPDATE executions SET created_at = created_at - interval '2 days' WHERE id = $1`, [
      paid[0].requestId,
    ]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await agentServer?.stop();
  });

  const buyerPage = (viewport: 'desktop' | 'phone' = 'desktop', decline = false) =>
    signedInPage(browser, api, buyer, '/buyer', { viewport, decline });

  it('lists its executions with status, cost and receipt, and what it spent per day', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const page = await buyerPage(viewport);
      await page.getByTestId('buyer-executions').locator('tbody tr').nth(3).waitFor();
      const rows = await tableRows(page, 'buyer-executions');
      const byId = Object.fromEntries(
        await page
          .getByTestId('buyer-executions')
          .locator('tbody tr')
          .evaluateAll((trs) => trs.map((tr, i) => [tr.getAttribute('data-request'), i])),
      ) as Record<string, number>;
      expect(Object.keys(byId).sort()).toEqual([...paid.map((p) => p.requestId), failedId].sort());
      for (const p of paid) expect(rows[byId[p.requestId]].slice(2, 5)).toEqual(['completed', '0.011000', 'receipt']);
      expect(rows[byId[failedId]].slice(2, 5)).toEqual(['failed', '0 (not charged)', '–']);
      await page.getByTestId('spend-chart').getByText('Data').click();
      const days = await page
        .getByTestId('spend-chart-table')
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [
            tr.getAttribute('data-at'),
            ...[...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent),
          ]),
        );
      const day = (ms: number) => `${new Date(ms).toISOString().slice(0, 10)}T00:00:00.000Z`;
      const [{ at: oldAt }] = await ds.query(`SELECT created_at AS at FROM executions WHERE id = $1`, [
        paid[0].requestId,
      ]);
      expect(days).toEqual([
        [day(Date.parse(oldAt)), '0.011000', '1'],
        [day(Date.now()), '0.022000', '2'],
      ]);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'buyer', viewport);
      expect(await fitsWidth(page)).toBe(true);
      await page.context().close();
    }
  });

  it('files a dispute from an execution, signed by the wallet; a declined signature files nothing', async () => {
    const declined = await buyerPage('desktop', true);
    await declined.locator(`[data-request="${paid[1].requestId}"]`).getByRole('button', { name: 'Dispute' }).click();
    await declined.getByLabel('What went wrong').fill('Empty answer');
    await declined.getByRole('button', { name: 'Sign and file' }).click();
    await expect(declined.getByRole('alert').textContent()).resolves.toBe(
      'The wallet declined to sign: nothing changed.',
    );
    expect(await ds.query(`SELECT id FROM disputes WHERE transaction_id = $1`, [paid[1].transactionId])).toEqual([]);
    await declined.context().close();

    const page = await buyerPage();
    await page.locator(`[data-request="${paid[1].requestId}"]`).getByRole('button', { name: 'Dispute' }).click();
    await page.getByLabel('What went wrong').fill('Empty answer');
    await page.getByRole('button', { name: 'Sign and file' }).click();
    await page.getByTestId('buyer-disputes').locator('tbody tr').waitFor();
    const [row] = await ds.query(`SELECT id, client_wallet, status, reason FROM disputes WHERE transaction_id = $1`, [
      paid[1].transactionId,
    ]);
    expect(row).toMatchObject({
      client_wallet: buyer.address.toLowerCase(),
      status: 'pending',
      reason: 'Empty answer',
    });
    const listed = page.locator(`[data-testid="buyer-disputes"] [data-dispute="${row.id}"]`);
    await listed.waitFor();
    expect(await listed.locator('td').evaluateAll((tds) => tds.slice(1).map((td) => td.textContent))).toEqual([
      paid[1].transactionId,
      'Empty answer',
      'pending',
    ]);
    await screenshot(page, 'buyer-disputes', 'desktop');
    await page.context().close();
  });

  it('another wallet sees none of it', async () => {
    const other = await pageWithWallet(browser, newWallet());
    await signInOnPage(other, api);
    await other.goto(`${api.baseUrl}/buyer`);
    await other.getByText('No paid run yet.').waitFor();
    expect(await other.getByTestId('buyer-executions').locator('tbody tr').count()).toBe(0);
    const read = await other.request.get(`${api.baseUrl}/api/v1/payers/${buyer.address}/executions`);
    expect(read.status()).toBe(403);
    await other.context().close();
  });
});
