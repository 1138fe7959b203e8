import { Wallet } from 'ethers';
import { Browser } from 'playwright-core';
import { TestAgentServer } from '../support/agent-server';
import { startApi, ApiHarness } from '../support/api-harness';
import { CONSOLE_BUILD, fitsWidth, launchBrowser, openPage, screenshot, seriousViolations } from '../support/browser';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';
import { fileDispute, paidExecute, resolveDispute } from '../support/disputes';

/**
 * The console's execution page in Debian's Chromium: the outcome and fee split anyone sees; the
 * output for the one who shows the payment header; receipts checked in the browser against the
 * deployment's published key, a tampered one shown as invalid.
 */
describe('console: execution page and receipts (browser)', () => {
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let browser: Browser;
  let requestId: string;
  let output: unknown;
  let payment: { name: string; value: string };
  let receipt: string;
  let agentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ CONSOLE_DIR: CONSOLE_BUILD, OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    const reg = await registerAgent(api, newWallet(), {
      endpoints: { execution: agentServer.url },
      capabilities: [capabilityPayload()],
    });
    expect(reg.status).toBe(201);
    agentId = reg.body.data.id;
    payment = await x402Header(new Wallet(Wallet.createRandom().privateKey), {
      amount: 11_000n,
      payTo: api.config.platformWallet,
    });
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: reg.body.data.id, capabilityId: 'translate', input: { text: 'bonjour' } },
      headers: { [payment.name]: payment.value },
    });
    expect(res.status).toBe(200);
    requestId = res.body.data.requestId;
    output = res.body.data.output;
    const name = payment.name.toUpperCase() === 'X-PAYMENT' ? 'x-payment-response' : 'payment-response';
    const answer = JSON.parse(Buffer.from(res.headers.get(name)!, 'base64').toString());
    receipt = answer.extensions['offer-receipt'].info.receipt.signature;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await agentServer?.stop();
  });

  it('anyone sees the outcome and the fee split; the payer, with its payment header, the output and a valid receipt', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const page = await openPage(browser, viewport);
      await page.goto(`${api.baseUrl}/executions/${requestId}`);
      await page.getByTestId('exec-status').waitFor();
      expect(await page.getByTestId('exec-status').textContent()).toBe('completed');
      expect(await page.getByTestId('exec-total').textContent()).toBe('0.011000');
      expect(await page.getByTestId('exec-platform-fee').textContent()).toBe('0.001000');
      expect(await page.getByTestId('exec-agent-fee').textContent()).toBe('0.010000');
      expect(await page.getByTestId('exec-settlement').textContent()).toBe('settled');
      expect(await page.getByTestId('exec-output').count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'execution', viewport);
      await page.context().close();
    }

    const page = await openPage(browser, 'desktop');
    await page.goto(`${api.baseUrl}/executions/${requestId}`);
    await page
      .getByLabel('Header', { exact: true })
      .selectOption(payment.name.toUpperCase() === 'X-PAYMENT' ? 'X-PAYMENT' : 'PAYMENT-SIGNATURE');
    await page.getByLabel('Payment header that paid').fill(payment.value);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByTestId('exec-output').waitFor();
    expect(JSON.parse((await page.getByTestId('exec-output').textContent())!)).toEqual(output);
    const verdict = page.getByTestId('payer-receipt');
    await verdict.waitFor();
    expect(await verdict.getAttribute('data-valid')).toBe('true');
    expect(await verdict.textContent()).toContain('The output matches its content hash.');
    await screenshot(page, 'execution-payer', 'desktop');
    await page.context().close();
  });

  it('a wrong payment header shows no output', async () => {
    const page = await openPage(browser, 'desktop');
    await page.goto(`${api.baseUrl}/executions/${requestId}`);
    const other = await x402Header(new Wallet(Wallet.createRandom().privateKey), {
      amount: 11_000n,
      payTo: api.config.platformWallet,
    });
    await page.getByLabel('Payment header that paid').fill(other.value);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('did not pay for this execution');
    expect(await page.getByTestId('exec-output').count()).toBe(0);
    await page.context().close();
  });

  it('a receipt checks as valid in the browser; the same receipt with one byte of its payload changed, as invalid', async () => {
    const page = await openPage(browser, 'desktop');
    await page.goto(`${api.baseUrl}/executions/${requestId}`);
    const check = async (jws: string) => {
      await page.getByLabel('Receipt (compact JWS)').fill(jws);
      await page.getByRole('button', { name: 'Check' }).click();
      const v = page.getByTestId('receipt-verdict');
      await v.waitFor();
      return v;
    };
    expect(await (await check(receipt)).getAttribute('data-valid')).toBe('true');
    // Version 4 commits to the request id instead of stating it (issue 52): the verdict shows the commitment.
    const shown = await page.getByTestId('receipt-verdict').textContent();
    expect([shown?.includes('"requestCommitment"'), shown?.includes(requestId)]).toEqual([true, false]);

    // The amount in the payload changed: the JWS re-encoded with the same signature.
    const [head, body, sig] = receipt.split('.');
    const fields = JSON.parse(Buffer.from(body, 'base64url').toString());
    const tampered = Buffer.from(JSON.stringify({ ...fields, amount: '1' })).toString('base64url');
    const verdict = await check(`${head}.${tampered}.${sig}`);
    await page.locator('[data-testid="receipt-verdict"][data-valid="false"]').waitFor();
    expect(await verdict.textContent()).toContain('the signature does not match the signed content');
    await screenshot(page, 'execution-tampered-receipt', 'desktop');
    await page.context().close();
  });

  it('by its transaction id the page shows its timeline (each step, the dispute, the refund) and no request id', async () => {
    const call = await paidExecute(api, agentId, new Wallet(Wallet.createRandom().privateKey), 11_000n);
    const disputeId = (await fileDispute(api, call)).body.data.disputeId;
    expect((await resolveDispute(api, disputeId, 'client_wins')).status).toBe(200);
    const expected = (await api.request('GET', `/api/v1/execute/${call.transactionId}/timeline`)).body.data;
    for (const viewport of ['desktop', 'phone'] as const) {
      const page = await openPage(browser, viewport);
      await page.goto(`${api.baseUrl}/executions/${call.transactionId}`);
      const steps = page.getByTestId('timeline').locator('li');
      await steps.first().waitFor();
      expect(await steps.evaluateAll((li) => li.map((l) => l.getAttribute('data-type')))).toEqual(
        expected.events.map((e: { type: string }) => e.type),
      );
      for (const type of ['charged', 'disputed', 'dispute_resolved', 'refund_issued'])
        expect(expected.events.map((e: { type: string }) => e.type)).toContain(type);
      expect(await page.locator('li[data-type="charged"] [data-testid="amount"]').textContent()).toBe('0.011000 USDC');
      expect(await page.locator('li[data-type="dispute_resolved"]').textContent()).toContain('client wins');
      const refund = expected.events.find((e: { type: string }) => e.type === 'refund_issued');
      expect(await page.locator('li[data-type="refund_issued"] [data-testid="amount"]').textContent()).toBe(
        `${refund.amount} USDC`,
      );
      expect(await page.getByRole('link', { name: `GET /api/v1/execute/${call.transactionId}/timeline` }).count()).toBe(
        1,
      );
      expect(page.url()).toBe(`${api.baseUrl}/executions/${call.transactionId}`);
      expect(await page.content()).not.toContain(call.requestId);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'execution-timeline', viewport);
      await page.context().close();
    }
  });
});
