import { Browser } from 'playwright-core';
import { DataSource } from 'typeorm';
import { OutboxService } from '@app/outbox';
import { ProcessWithdrawal } from '@app/payments';
import { DeliverAttempt, EventFanout } from '@app/webhooks';
import { TestAgentServer } from '../support/agent-server';
import { ApiHarness } from '../support/api-harness';
import { fitsWidth, launchBrowser, screenshot, seriousViolations, startConsoleApi } from '../support/browser';
import { pageWithWallet, signedInPage, signInOnPage, tableRows } from '../support/browser-wallet';
import { clientSignature } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { JsonReceiver } from '../support/json-receiver';
import { seedCharge } from '../support/money';
import { newWallet, walletHeaders } from '../support/wallets';

const DEST = '0x2222222222222222222222222222222222222222';

/**
 * The agent owner's console in Debian's Chromium (issue 36), with an injected EIP-1193 provider
 * backed by the owner's test key: the balance the test computed and its chart, a withdrawal watched
 * to its transaction, a dispute answered, a failed delivery redelivered, the agent edited; each
 * change signed by the wallet for that request, a declined one changing nothing; another wallet,
 * an expired and a revoked session see nothing of the agent.
 */
describe('console: the agent owner’s views (browser)', () => {
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let receiver: JsonReceiver;
  let browser: Browser;
  let ds: DataSource;
  let agentId: string;
  const owner = newWallet();
  const buyer = newWallet();
  const txIds: string[] = [];

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    receiver = await new JsonReceiver().start();
    api = await startConsoleApi({
      WEBHOOK_TIMEOUT_MS: '1000',
    });
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, owner, {
      name: 'Owner view agent',
      endpoints: { execution: agentServer.url },
      capabilities: [capabilityPayload()],
    });
    agentId = res.body.data.id;
    // Two charges of 3.00 and 2.00 agent fee, 5% platform cut: 2.85 + 1.90 = 4.75 earned, released at once.
    for (const agentFee of [3_000_000n, 2_000_000n]) {
      const charge = await seedCharge(api.app, { agentId, agentFee, payerWallet: buyer.address.toLowerCase() });
      txIds.push(charge.transaction.id);
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await agentServer?.stop();
    await receiver?.stop();
  });

  const ownerPage = (viewport: 'desktop' | 'phone' = 'desktop', decline = false) =>
    signedInPage(browser, api, owner, '/owner', { agentId, viewport, decline });

  it('shows the balance the test computed, with its chart, on desktop and phone', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const page = await ownerPage(viewport);
      await expect(page.getByTestId('owner-held').textContent()).resolves.toBe('4.750000');
      expect(await page.getByTestId('owner-available').textContent()).toBe('4.750000');
      await page.getByTestId('balance-chart').getByText('Data').click();
      const rows = await tableRows(page, 'balance-chart-table');
      expect(rows.map((r) => r[1])).toEqual(['2.850000', '4.750000']);
      expect(rows.map((r) => r[2].split(' ')[1])).toEqual(txIds);
      await page.getByTestId('owner-transactions').locator('tbody tr').nth(1).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'owner', viewport);
      expect(await fitsWidth(page)).toBe(true);
      await page.context().close();
    }
  });

  it('a declined signature changes nothing', async () => {
    const page = await ownerPage('desktop', true);
    await page.getByLabel('Amount (USDC)').fill('2.00');
    await page.getByRole('button', { name: 'Sign and withdraw' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('The wallet declined to sign: nothing changed.');
    expect(await ds.query(`SELECT id FROM withdrawals WHERE agent_id = $1`, [agentId])).toEqual([]);
    await page.context().close();
  });

  it('withdraws with a preview of fee and net, and shows it through to its transaction', async () => {
    const signed: string[] = [];
    const page = await signedInPage(browser, api, owner, '/owner', { agentId, signed });
    await page.getByLabel('Amount (USDC)').fill('0.5');
    expect(await page.getByTestId('withdraw-preview').textContent()).toBe('At least 1.00 USDC');
    await page.getByLabel('Amount (USDC)').fill('2.00');
    await page.getByLabel('To wallet').fill(DEST);
    expect(await page.getByTestId('withdraw-preview').textContent()).toBe('Fee 0.10, you receive 1.90 USDC');
    await page.getByRole('button', { name: 'Sign and withdraw' }).click();
    const progress = page.getByTestId('withdraw-progress');
    await progress.waitFor();
    expect(signed.at(-1)).toMatch(new RegExp(`^agora-auth:${agentId}:\\d+:POST /api/v1/payments/withdraw$`));
    const [w] = await ds.query(`SELECT id, amount, destination_wallet FROM withdrawals WHERE agent_id = $1`, [agentId]);
    expect(w).toMatchObject({ amount: '2000000', destination_wallet: DEST.toLowerCase() });
    // What the worker does next: the transfer, then the page sees it complete.
    expect(await api.app.get(ProcessWithdrawal).execute(w.id)).toBe('completed');
    await page.locator('[data-testid="withdraw-progress"][data-status="completed"]').waitFor();
    expect(await page.getByTestId('withdraw-tx').textContent()).toMatch(/^0x[0-9a-f]{64}$/);
    await page.getByTestId('owner-withdrawn').filter({ hasText: '2.000000' }).waitFor();
    expect(await page.getByTestId('owner-held').textContent()).toBe('2.750000');
    await screenshot(page, 'owner-withdraw', 'desktop');
    await page.context().close();
  });

  it('answers a dispute with the deadline and the platform’s evidence in view', async () => {
    const filed = await api.request('POST', '/api/v1/disputes', {
      body: { transactionId: txIds[0], reason: 'The answer was in the wrong language' },
      headers: await clientSignature(buyer, txIds[0]),
    });
    expect(filed.status).toBe(201);
    const page = await ownerPage();
    const item = page.locator(`[data-dispute="${filed.body.data.disputeId}"]`);
    await item.getByTestId('dispute-deadline').waitFor();
    expect(await item.getByTestId('dispute-deadline').locator('time').getAttribute('datetime')).toBe(
      filed.body.data.respondBy,
    );
    await item.getByText("The platform's evidence").click();
    expect(await item.getByTestId('dispute-evidence').textContent()).toContain(txIds[0]);
    await item.getByLabel('Your answer').fill('It was translated into French as asked.');
    await item.getByRole('button', { name: 'Sign and answer' }).click();
    await item.getByTestId('dispute-answer').waitFor();
    const [row] = await ds.query(`SELECT status, agent_response FROM disputes WHERE id = $1`, [
      filed.body.data.disputeId,
    ]);
    expect(row).toEqual({ status: 'responded', agent_response: 'It was translated into French as asked.' });
    await screenshot(page, 'owner-dispute', 'desktop');
    await page.context().close();
  });

  it('shows a failed delivery with what was sent and answered, and redelivers it', async () => {
    const sub = await api.request('POST', '/api/v1/webhooks', {
      body: { agentId, url: receiver.url, events: ['escrow.released'] },
      headers: await walletHeaders(owner, agentId, 'POST /api/v1/webhooks'),
    });
    const webhookId = sub.body.data.webhookId as string;
    receiver.reply = () => ({ status: 503, body: '{"error":"down for maintenance"}' });
    const eventId = await ds.transaction((m) =>
      api.app.get(OutboxService).record(m, 'escrow.released', agentId, { requestId: 'req_owner000001' }),
    );
    await api.app.get(EventFanout).execute(eventId);
    const [first] = await ds.query(`SELECT id FROM webhook_deliveries WHERE subscription_id = $1`, [webhookId]);
    expect(await api.app.get(DeliverAttempt).execute(first.id)).toBe('retry');

    const page = await ownerPage();
    const row = page.locator(`[data-delivery="${first.id}"]`);
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('failed');
    await row.getByText('503').click();
    expect(await row.locator('pre').nth(1).textContent()).toBe('{"error":"down for maintenance"}');
    expect(JSON.parse((await row.locator('pre').first().textContent())!)).toMatchObject({ type: 'escrow.released' });
    await row.getByRole('button', { name: 'Redeliver' }).click();
    const manual = async () =>
      (await ds.query(`SELECT id FROM webhook_deliveries WHERE subscription_id = $1 AND manual`, [webhookId]))[0];
    await page.locator(`[data-testid="deliveries-${webhookId}"] tbody tr`).nth(2).waitFor();
    const again = await manual();
    receiver.reply = null;
    receiver.status = 200;
    expect(await api.app.get(DeliverAttempt).execute(again.id)).toBe('succeeded');
    await page.locator(`[data-delivery="${again.id}"][data-status="succeeded"]`).waitFor({ timeout: 15_000 });
    await screenshot(page, 'owner-webhooks', 'desktop');
    await page.context().close();
  });

  it('edits the agent with the API’s validation; a bad value changes nothing', async () => {
    const page = await ownerPage();
    await page.getByLabel('Execution endpoint').fill('ftp://nowhere');
    await page.getByRole('button', { name: 'Sign and save' }).click();
    await expect(page.locator('#settings-title ~ [role="alert"]').textContent()).resolves.toContain('VALIDATION_ERROR');
    expect((await api.request('GET', `/api/v1/agents/${agentId}`)).body.data.endpoints.execution).toBe(agentServer.url);
    await page.getByLabel('Execution endpoint').fill(agentServer.url);
    await page.getByLabel('Name').fill('Owner view agent, renamed');
    await page.getByLabel('Agent status').selectOption('inactive');
    await page.getByRole('button', { name: 'Sign and save' }).click();
    await page.getByTestId('settings-saved').waitFor();
    expect((await api.request('GET', `/api/v1/agents/${agentId}`)).body.data).toMatchObject({
      name: 'Owner view agent, renamed',
      status: 'inactive',
    });
    await page.context().close();
  });

  it('another wallet, an expired and a revoked session see nothing of the agent', async () => {
    const other = await pageWithWallet(browser, newWallet());
    await signInOnPage(other, api);
    await other.goto(`${api.baseUrl}/owner`);
    await other.getByTestId('owner-signed-out').waitFor();
    const history = await other.request.get(`${api.baseUrl}/api/v1/payments/history/${agentId}`);
    expect(history.status()).toBe(403);
    await other.context().close();

    for (const end of ['expired', 'revoked'] as const) {
      const page = await ownerPage();
      await page.getByTestId('owner-held').waitFor();
      await ds.query(
        end === 'expired'
          ? `UPDATE console_sessions SET expires_at = now() - interval '1 second' WHERE agent_id = $1 AND revoked_at IS NULL`
          : `UPDATE console_sessions SET revoked_at = now() WHERE agent_id = $1 AND revoked_at IS NULL`,
        [agentId],
      );
      await page.reload();
      await page.getByTestId('owner-signed-out').waitFor();
      expect((await page.request.get(`${api.baseUrl}/api/v1/agents/${agentId}/executions`)).status()).toBe(401);
      await page.context().close();
    }
  });
});
