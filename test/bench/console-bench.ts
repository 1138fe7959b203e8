/* npm run bench:console: the console's weight and how fast it shows (docs/performance.md).
   The built console's files (raw and gzip), then in Debian's Chromium against the api (local
   settlement, a fresh database with agents and paid executions), BENCH_LOADS (10) loads of the
   explorer on a cold cache (a new browser context each) and as many reloads on a warm one: first
   contentful paint, and the time until the totals from the API are on screen, from navigation start. */
import 'reflect-metadata';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Wallet } from 'ethers';
import { chromium, Page } from 'playwright-core';
import { registerBenchAgent } from './bench-agents';
import { freshDatabase, spawnRole, stopRoles } from './bench-lib';
import { DB, ROLES_FILE } from './bench-roles';

const BUILD = join(process.cwd(), 'dist', 'apps', 'console');
const LOADS = Number(process.env.BENCH_LOADS ?? 10);
const USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const PLATFORM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function bundle(): void {
  process.stdout.write('| file | bytes | gzip bytes |\n|---|---|---|\n');
  const files = ['index.html', ...readdirSync(join(BUILD, 'assets')).map((f) => join('assets', f))];
  for (const f of files) {
    const body = readFileSync(join(BUILD, f));
    process.stdout.write(
      `| ${f.replace(/-[\w-]{8}\./, '.')} | ${statSync(join(BUILD, f)).size} | ${gzipSync(body).length} |\n`,
    );
  }
}

/** Navigation start to first contentful paint, and to the totals on screen (ms). */
async function measure(page: Page, url: string, reload: boolean): Promise<{ fcp: number; data: number }> {
  await (reload ? page.reload() : page.goto(url));
  await page.getByTestId('total-agents').waitFor();
  const data = await page.evaluate<number>('performance.now()');
  const fcp = await page.evaluate<number>(
    `performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN`,
  );
  return { fcp, data };
}

async function main(): Promise<void> {
  bundle();
  await freshDatabase(DB);
  const agent = await spawnRole(ROLES_FILE, 'agent');
  const api = await spawnRole(ROLES_FILE, 'api');
  for (let i = 0; i < 5; i++)
    await registerBenchAgent(
      api.url,
      agent.url,
      new Wallet(Wallet.createRandom().privateKey),
      USDC,
      PLATFORM,
      `Console bench agent ${i}`,
    );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  const cold: { fcp: number; data: number }[] = [];
  const warm: { fcp: number; data: number }[] = [];
  const url = `${api.url}/`;
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    cold.push(await measure(page, url, false));
    warm.push(await measure(page, url, true));
    await context.close();
  }
  await browser.close();
  await stopRoles([agent.child, api.child]);
  process.stdout.write(
    `\n${LOADS} loads of the explorer (median ms from navigation start)\n\n| cache | first contentful paint | totals on screen |\n|---|---|---|\n`,
  );
  for (const [name, runs] of [
    ['cold', cold],
    ['warm', warm],
  ] as const)
    process.stdout.write(
      `| ${name} | ${median(runs.map((r) => r.fcp)).toFixed(1)} | ${median(runs.map((r) => r.data)).toFixed(1)} |\n`,
    );
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err.stack ?? err}\n`);
  process.exit(1);
});
