import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { Browser, chromium, Page } from 'playwright-core';
import { startApi, ApiHarness } from './api-harness';
import { freePort } from './ports';

/** Debian's Chromium (scripts/lib.sh ensure_chromium installs it when missing). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where the browser tests leave their screenshots (kept by the run, named by page and width). */
export const SCREENSHOTS = join(process.cwd(), '.tmp', 'screenshots');
/** The built console the api serves in these tests (`npm run build` builds it). */
export const CONSOLE_BUILD = join(process.cwd(), 'dist', 'apps', 'console');

export const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: run bash scripts/test.sh (it installs it)`);
  if (!existsSync(join(CONSOLE_BUILD, 'index.html'))) throw new Error('the console is not built: npm run build');
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** A page in a context of its own (axe needs one), at a viewport's size; close it with `page.context().close()`. */
export async function openPage(browser: Browser, viewport: keyof typeof VIEWPORTS = 'desktop'): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORTS[viewport] });
  return context.newPage();
}

/** Whether the page fits its viewport's width (nothing to scroll sideways: what a phone user sees). */
export function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');
}

/** A full-page screenshot at `.tmp/screenshots/<name>-<viewport>.png`; answers its path. */
export async function screenshot(page: Page, name: string, viewport: keyof typeof VIEWPORTS): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}-${viewport}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** axe's violations of impact serious or critical on the page as it is now (WCAG 2.1 A and AA). */
export async function seriousViolations(page: Page): Promise<{ id: string; impact: string; nodes: number }[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact!, nodes: v.nodes.length }));
}

/**
 * The api in process serving the built console on a port chosen first, so its origin
 * (PUBLIC_BASE_URL, which sign-in messages name) is known; test agents on loopback are allowed.
 */
export async function startConsoleApi(env: Record<string, string> = {}): Promise<ApiHarness> {
  const port = await freePort();
  return startApi({
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    CONSOLE_DIR: CONSOLE_BUILD,
    OUTBOUND_ALLOW_HTTP: 'true',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    ...env,
  });
}
