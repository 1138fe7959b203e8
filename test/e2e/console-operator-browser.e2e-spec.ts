import { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { CheckInvariants, LEDGER_CHECKS } from '@app/ledger';
import { OutboxService } from '@app/outbox';
import { DeliverAttempt, EventFanout } from '@app/webhooks';
import { TestAgentServer } from '../support/agent-server';
import { ApiHarness } from '../support/api-harness';
import { fitsWidth, launchBrowser, openPage, screenshot, seriousViolations, startConsoleApi } from '../support/browser';
import { ADMIN, fileDispute, paidExecute, PaidCall } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { JsonReceiver } from '../support/json-receiver';
import { newWallet, walletHeaders } from '../support/wallets';

const KEY = ADMIN['X-Admin-Key'];

/**
 * The operator's console in Debian's Chromium (issue 36): the admin key entered once for the tab and
 * kept nowhere in the browser; a dispute decided with both sides in view and its refund appearing
 * among the payouts not final; a suspension lifted; the invariant status, queues and failed webhooks.
 */
describe('console: the operator’s views (browser)', () => {
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let receiver: JsonReceiver;
  let browser: Browser;
  let ds: DataSource;
  let agentId: string;
  let suspendedId: string;
  let call: PaidCall;
  let disputeId: string;
  let webhookId: string;
  const owner = newWallet();

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    receiver = await new JsonReceiver().start();
    api = await startConsoleApi({
      WEBHOOK_TIMEOUT_MS: '1000',
    });
    ds = api.app.get(DataSource);
    const register = async (name: string, wallet = newWallet()) =>
      (
        await registerAgent(api, wallet, {
          name,
          endpoints: { execution: agentServer.url },
          capabilities: [capabilityPayload()],
        })
      ).body.data.id as string;
    agentId = await register('Disputed agent', owner);
    suspendedId = await register('Suspended agent');
    await api.request('POST', `/api/v1/admin/agents/${suspendedId}/suspend`, {
      body: { reason: 'spam outputs' },
      headers: ADMIN,
    });
    // A paid run, disputed by its payer and answered by the agent.
    call = await paidExecute(api, agentId, newWallet(), 11_000n);
    disputeId = (await fileDispute(api, call, { reason: 'Answer in the wrong language' })).body.data.disputeId;
    await api.request('POST', `/api/v1/disputes/${disputeId}/respond`, {
      body: { response: 'It was French, as asked' },
      headers: await walletHeaders(owner, agentId, `POST /api/v1/disputes/${disputeId}/respond`),
    });
    // A subscription the receiver ends with 410 Gone: marked failed.
    webhookId = (
      await api.request('POST', '/api/v1/webhooks', {
        body: { agentId, url: receiver.url, events: ['escrow.released'] },
        headers: await walletHeaders(owner, agentId, 'POST /api/v1/webhooks'),
      })
    ).body.data.webhookId;
    receiver.status = 410;
    const eventId = await ds.transaction((m) =>
      api.app.get(OutboxService).record(m, 'escrow.released', agentId, { requestId: call.requestId }),
    );
    await api.app.get(EventFanout).execute(eventId);
    const [d] = await ds.query(`SELECT id FROM webhook_deliveries WHERE subscription_id = $1`, [webhookId]);
    await api.app.get(DeliverAttempt).execute(d.id);
    await api.app.get(CheckInvariants).execute(LEDGER_CHECKS, new Date());
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await agentServer?.stop();
    await receiver?.stop();
  });

  async function operatorPage(viewport: 'desktop' | 'phone' = 'desktop', key = KEY): Promise<Page> {
    const page = await openPage(browser, viewport);
    await page.goto(`${api.baseUrl}/operator`);
    await page.getByRole('textbox', { name: 'Admin key' }).fill(key);
    await page.getByRole('button', { name: 'Use this key' }).click();
    return page;
  }
  /** Everything the browser keeps for this origin: storage, cookies, IndexedDB, the URL and the page. */
  const kept = async (page: Page) =>
    JSON.stringify({
      storage: await page.evaluate<string>('JSON.stringify([{ ...localStorage }, { ...sessionStorage }])'),
      cookies: await page.context().cookies(),
      idb: await page.evaluate<string>('indexedDB.databases().then((d) => JSON.stringify(d.map((x) => x.name)))'),
      url: page.url(),
      html: await page.content(),
    });

  it('a wrong key is refused and nothing is kept', async () => {
    const page = await operatorPage('desktop', 'not-the-admin-key');
    await expect(page.getByRole('alert').textContent()).resolves.toBe('FORBIDDEN: X-Admin-Key is not valid');
    expect(await page.getByRole('textbox', { name: 'Admin key' }).inputValue()).toBe('');
    expect(await page.getByTestId('op-disputes').count()).toBe(0);
    expect(await kept(page)).not.toContain('not-the-admin-key');
    await page.context().close();
  });

  it('shows every panel with the key held in memory only; a reload forgets it', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const page = await operatorPage(viewport);
      const item = page.locator(`[data-testid="op-disputes"] [data-dispute="${disputeId}"]`);
      await item.waitFor();
      expect(await item.getByTestId('op-reason').textContent()).toBe('Answer in the wrong language');
      expect(await item.getByTestId('op-answer').textContent()).toBe('It was French, as asked');
      await page.locator(`[data-testid="op-suspended"] [data-agent="${suspendedId}"]`).waitFor();
      expect(
        await page.locator(`[data-agent="${suspendedId}"] td`).evaluateAll((tds) => tds.map((t) => t.textContent)),
      ).toEqual([expect.stringContaining('Suspended agent'), expect.any(String), 'admin', 'spam outputs', 'Reinstate']);
      expect(await page.getByTestId('op-invariants-now').getAttribute('data-ok')).toBe('true');
      const queues = await page
        .getByTestId('op-queues')
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-queue')));
      expect(queues).toEqual(['maintenance', 'money', 'executions', 'webhooks']);
      const failed = page.locator(`[data-testid="op-webhooks"] [data-webhook="${webhookId}"]`);
      expect(await failed.locator('td').nth(2).textContent()).toBe('the endpoint answered 410 Gone');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'operator', viewport);
      expect(await fitsWidth(page)).toBe(true);
      expect(await kept(page)).not.toContain(KEY);
      await page.reload();
      await page.getByRole('textbox', { name: 'Admin key' }).waitFor();
      expect(await page.getByTestId('op-disputes').count()).toBe(0);
      await page.context().close();
    }
  });

  it('resolves the dispute for the payer and the refund appears among the payouts not final', async () => {
    const page = await operatorPage();
    const item = page.locator(`[data-testid="op-disputes"] [data-dispute="${disputeId}"]`);
    await item.getByLabel('Decision').selectOption('client_wins');
    await item.getByLabel('Note').fill('The output was not in the language asked');
    await item.getByRole('button', { name: 'Resolve' }).click();
    const result = page.locator(`[data-testid="op-resolved"][data-dispute="${disputeId}"]`);
    await result.waitFor();
    expect(await result.textContent()).toContain('client_wins, refund 0.010000 USDC to the payer');
    const [refund] = await ds.query(`SELECT id, amount FROM refunds WHERE transaction_id = $1`, [call.transactionId]);
    expect(refund.amount).toBe('10000');
    const row = page.locator(`[data-testid="op-pending"] [data-kind="refund"][data-id="${refund.id}"]`);
    await row.waitFor();
    expect(await row.locator('td').nth(2).textContent()).toBe('0.010000');
    await item.waitFor({ state: 'detached' });
    await screenshot(page, 'operator-resolved', 'desktop');
    await page.context().close();
  });

  it('reinstates a suspended agent', async () => {
    const page = await operatorPage();
    await page.locator(`[data-agent="${suspendedId}"]`).getByRole('button', { name: 'Reinstate' }).click();
    await page.locator(`[data-agent="${suspendedId}"]`).waitFor({ state: 'detached' });
    expect((await api.request('GET', `/api/v1/agents/${suspendedId}`)).body.data.status).toBe('active');
    await page.context().close();
  });
});
