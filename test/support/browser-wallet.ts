import { getBytes, Wallet } from 'ethers';
import { Browser, Page } from 'playwright-core';
import { ApiHarness } from './api-harness';
import { openPage, VIEWPORTS } from './browser';

/**
 * A page whose `window.ethereum` is an EIP-1193 provider backed by `wallet`: personal_sign is signed
 * here, in the test, with the wallet's key (never given to the page). `decline`: every signature
 * request is refused as a user would (error 4001). `signed` counts the signatures made.
 */
export async function pageWithWallet(
  browser: Browser,
  wallet: Wallet,
  opts: { viewport?: keyof typeof VIEWPORTS; decline?: boolean; signed?: string[] } = {},
): Promise<Page> {
  const page = await openPage(browser, opts.viewport ?? 'desktop');
  await page.exposeFunction('agoraTestSign', async (hex: string) => {
    const bytes = getBytes(hex);
    opts.signed?.push(new TextDecoder().decode(bytes));
    return wallet.signMessage(bytes);
  });
  await page.addInitScript(
    ({ address, decline }) => {
      (globalThis as unknown as { ethereum: unknown }).ethereum = {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address];
          if (method === 'eth_chainId') return '0x14a34';
          if (method === 'personal_sign') {
            if (decline) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
            return (globalThis as unknown as { agoraTestSign: (h: string) => Promise<string> }).agoraTestSign(
              params![0] as string,
            );
          }
          throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
        },
      };
    },
    { address: wallet.address, decline: opts.decline ?? false },
  );
  return page;
}

/** Signs in on the console's sign-in page: as `agentId`'s owner, or (without it) as the paying wallet. */
export async function signInOnPage(page: Page, api: ApiHarness, agentId?: string): Promise<void> {
  await page.goto(`${api.baseUrl}/sign-in`);
  if (agentId) await page.getByLabel('Agent id').fill(agentId);
  else await page.getByLabel('my paying wallet').check();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('signed-in').waitFor();
}

/**
 * A page signed in (as `agentId`'s owner, or as the paying wallet) and opened at `path`. `decline`:
 * the same session in a browser whose wallet then declines every signature (an action refused).
 */
export async function signedInPage(
  browser: Browser,
  api: ApiHarness,
  wallet: Wallet,
  path: string,
  opts: { agentId?: string; viewport?: keyof typeof VIEWPORTS; decline?: boolean; signed?: string[] } = {},
): Promise<Page> {
  const page = await pageWithWallet(browser, wallet, { viewport: opts.viewport, signed: opts.signed });
  await signInOnPage(page, api, opts.agentId);
  if (!opts.decline) {
    await page.goto(`${api.baseUrl}${path}`);
    return page;
  }
  const cookies = await page.context().cookies();
  await page.context().close();
  const declining = await pageWithWallet(browser, wallet, { viewport: opts.viewport, decline: true });
  await declining.context().addCookies(cookies);
  await declining.goto(`${api.baseUrl}${path}`);
  return declining;
}

/** The text of each cell of each body row of the table `testId`. */
export const tableRows = (page: Page, testId: string): Promise<string[][]> =>
  page
    .getByTestId(testId)
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));
