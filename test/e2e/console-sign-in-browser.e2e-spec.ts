import { Wallet } from 'ethers';
import { Browser, BrowserContext, Page } from 'playwright-core';
import { pageWithWallet } from '../support/browser-wallet';
import { DataSource } from 'typeorm';
import { TestAgentServer } from '../support/agent-server';
import { ApiHarness } from '../support/api-harness';
import { fitsWidth, launchBrowser, screenshot, seriousViolations, startConsoleApi } from '../support/browser';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';

/**
 * Signing in to the console in Debian's Chromium (issue 36) with an injected EIP-1193 provider
 * backed by a test key: the wallet signs the EIP-4361 message the page builds, the session cookie
 * is HTTP-only and same-site, another wallet is refused the agent, a declined signature changes
 * nothing, and signing out revokes the session.
 */
describe('console: sign-in with a browser wallet (browser)', () => {
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let browser: Browser;
  let ds: DataSource;
  let agentId: string;
  const owner = newWallet();

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startConsoleApi();
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, owner, {
      endpoints: { execution: agentServer.url },
      capabilities: [capabilityPayload()],
    });
    agentId = res.body.data.id;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await agentServer?.stop();
  });

  const withWallet = (wallet: Wallet, viewport: 'desktop' | 'phone' = 'desktop', decline = false) =>
    pageWithWallet(browser, wallet, { viewport, decline });
  const sessionRows = async () => (await ds.query(`SELECT id, revoked_at FROM console_sessions`)) as { id: string }[];
  async function signInAsAgent(page: Page) {
    await page.goto(`${api.baseUrl}/sign-in`);
    await page.getByLabel('Agent id').fill(agentId);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  const sessionCookie = async (context: BrowserContext) =>
    (await context.cookies()).find((c) => c.name === 'agora_session');

  it('the owner signs in as the agent: an HTTP-only, same-site cookie the page cannot read, and its session listed', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const page = await withWallet(owner, viewport);
      await signInAsAgent(page);
      const signedIn = page.getByTestId('signed-in');
      await signedIn.waitFor();
      expect(await signedIn.textContent()).toContain(agentId);
      expect(await signedIn.textContent()).toContain(owner.address.toLowerCase());
      const cookie = await sessionCookie(page.context());
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
      expect(await page.evaluate<string>('document.cookie')).not.toContain('agora_session');
      const rows = page.getByTestId('sessions').locator('tbody tr');
      await rows.first().waitFor();
      expect(await page.getByTestId('sessions').getByText('this browser').count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'sign-in', viewport);
      expect(await fitsWidth(page)).toBe(true);
      await page.context().close();
    }
  });

  it('another wallet is refused the agent; a declined signature changes nothing', async () => {
    const before = (await sessionRows()).length;
    const intruder = await withWallet(newWallet());
    await signInAsAgent(intruder);
    await intruder.getByRole('alert').waitFor();
    expect(await intruder.getByRole('alert').textContent()).toContain('FORBIDDEN');
    expect(await sessionCookie(intruder.context())).toBeUndefined();
    await intruder.context().close();

    const declined = await withWallet(owner, 'desktop', true);
    await signInAsAgent(declined);
    await declined.getByRole('alert').waitFor();
    expect(await declined.getByRole('alert').textContent()).toBe('The wallet declined to sign: nothing changed.');
    expect(await sessionCookie(declined.context())).toBeUndefined();
    await declined.context().close();
    expect((await sessionRows()).length).toBe(before);
  });

  it('signing out revokes the session: the cookie reads nothing any more', async () => {
    const page = await withWallet(owner);
    await signInAsAgent(page);
    await page.getByTestId('signed-in').waitFor();
    const cookie = (await sessionCookie(page.context()))!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const read = await api.request('GET', '/api/v1/console/session', {
      headers: { cookie: `agora_session=${cookie.value}` },
    });
    expect(read.status).toBe(401);
    await page.context().close();
  });
});
