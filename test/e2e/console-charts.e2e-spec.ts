import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Wallet } from 'ethers';
import { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { LATENCY_BOUNDS, latencyBucket, RollUpSeries } from '@app/analytics';
import { TestAgentServer } from '../support/agent-server';
import { startApi, ApiHarness } from '../support/api-harness';
import { CONSOLE_BUILD, fitsWidth, launchBrowser, openPage, screenshot, seriousViolations } from '../support/browser';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const HOUR = 3_600_000;
const QUOTED = "it's'; touch /tmp/agora-pwned; echo '$(id)`id`";
const DAY = 24 * HOUR;
const usdc = (m: bigint) => `${m / 1_000_000n}.${(m % 1_000_000n).toString().padStart(6, '0')}`;
const nearestRank = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.ceil((p / 100) * values.length) - 1];

/**
 * The console's charts (issue 35) in Debian's Chromium: the explorer's activity over a chosen range
 * and an agent's performance, uptime, snippets and chain settings, each figure checked against
 * what the test did (its paid runs, one failure, one run moved two days back, probes it recorded).
 */
describe('console: charts (browser)', () => {
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let browser: Browser;
  let ds: DataSource;
  let agentId: string;
  const payers = [new Wallet(Wallet.createRandom().privateKey), new Wallet(Wallet.createRandom().privateKey)];
  /** The runs of the last hour: ok and time, and the one moved two days back. */
  const recent: { ok: boolean; ms: number }[] = [];
  let aged = 0;
  /** The recent runs are pinned to the middle of the last hour (a run at an hour's end would split them). */
  const hour = Math.floor(Date.now() / HOUR) * HOUR - HOUR;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      CONSOLE_DIR: CONSOLE_BUILD,
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      EXECUTION_TIMEOUT_MS: '1000',
      SERIES_LAG_MS: '0',
    });
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, newWallet(), {
      name: 'Chart Translator',
      endpoints: { execution: agentServer.url },
      capabilities: [
        capabilityPayload(),
        // An example an agent wrote to break out of the snippet's quotes in a reader's shell.
        capabilityPayload({
          id: 'quoted',
          inputSchema: { type: 'object', examples: [{ text: QUOTED }] },
        }),
      ],
    });
    agentId = res.body.data.id;
    for (const [i, input] of [{ delayMs: 5 }, { delayMs: 40 }, { delayMs: 90 }, { mode: 'fail' }, {}].entries()) {
      const h = await x402Header(payers[i % 2], { amount: 11_000n, payTo: api.config.platformWallet });
      const r = await api.request('POST', '/api/v1/execute', {
        body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'hi', ...input } },
        headers: { [h.name]: h.value },
      });
      const [row] = await ds.query(
        `SELECT id, execution_time_ms AS ms FROM executions WHERE agent_id = $1 ORDER BY created_at DESC LIMIT 1`,
        [agentId],
      );
      if (i < 4) recent.push({ ok: r.status === 200, ms: row.ms });
      // The last one ended two days ago, as far as the series know.
      else aged = Date.now() - 2 * DAY;
      const at = new Date(i < 4 ? hour + HOUR / 2 : aged);
      await ds.query(`UPDATE executions SET completed_at = $2 WHERE id = $1`, [row.id, at]);
      await ds.query(
        `UPDATE transactions SET created_at = $2 WHERE id = (SELECT transaction_id FROM executions WHERE id = $1)`,
        [row.id, at],
      );
    }
    // Probes the worker would have recorded: 3 of 4 answered in the hour before the last, 2 of 2 in the last.
    await ds.query(
      `INSERT INTO agent_health_hourly (agent_id, hour, probes, ups, latency_ms_sum, latency_count)
       VALUES ($1, $2, 4, 3, 30, 3), ($1, $3, 2, 2, 20, 2)`,
      [agentId, new Date(hour - HOUR), new Date(hour)],
    );
    await api.app.get(RollUpSeries).execute();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await agentServer?.stop();
  });

  /** The cells of a chart's data row for the bucket starting at `at` (the table opened first). */
  async function row(page: Page, chart: string, at: number): Promise<string[]> {
    const figure = page.getByTestId(chart);
    const details = figure.locator('details');
    if (!(await details.evaluate((d) => (d as unknown as { open: boolean }).open)))
      await figure.locator('summary').click();
    await details.locator('table').waitFor();
    const cells = figure.locator(`tr[data-at="${new Date(at).toISOString()}"] td`);
    await cells.first().waitFor();
    return (await cells.allTextContents()).slice(1);
  }

  it('the explorer charts the executions, volume, buyers and sellers the test made, by the hour and by the day', async () => {
    const ok = recent.filter((r) => r.ok).length;
    for (const viewport of ['desktop', 'phone'] as const) {
      const page = await openPage(browser, viewport);
      await page.goto(`${api.baseUrl}/`);
      await page.getByTestId('chart-executions').locator('canvas').first().waitFor();
      expect(await page.getByTestId('chart-executions-table').locator('tbody tr').count()).toBe(24);
      expect(await row(page, 'chart-executions', hour)).toEqual([String(recent.length), String(ok)]);
      expect(await row(page, 'chart-volume', hour)).toEqual([usdc(11_000n * BigInt(ok))]);
      expect(await row(page, 'chart-parties', hour)).toEqual(['2', '1']);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      expect(existsSync(await screenshot(page, 'explorer-charts', viewport))).toBe(true);
      await page.context().close();
    }
    // By the day over 30 days: the run moved back two days is in its own day, at a URL that keeps the range.
    const page = await openPage(browser, 'desktop');
    await page.goto(`${api.baseUrl}/`);
    await page.getByRole('button', { name: '30 days' }).click();
    await page.waitForURL(`${api.baseUrl}/?range=30d`);
    await page.getByTestId('chart-executions-table').locator('tbody tr').nth(29).waitFor({ state: 'attached' });
    expect(await page.getByTestId('chart-executions-table').locator('tbody tr').count()).toBe(30);
    expect(await row(page, 'chart-executions', Math.floor(aged / DAY) * DAY)).toEqual(['1', '1']);
    expect(await row(page, 'chart-volume', Math.floor(aged / DAY) * DAY)).toEqual(['0.011000']);
    expect(
      await page.getByRole('link', { name: /GET \/api\/v1\/analytics\/platform\/series\?bucket=day/ }).count(),
    ).toBe(1);
    await page.context().close();
  });

  it('the agent page charts its executions, success rate, latency and earnings, with its uptime, snippets and chain settings', async () => {
    const times = recent.filter((r) => r.ok).map((r) => r.ms);
    const bound = (p: number) => String(LATENCY_BOUNDS[latencyBucket(nearestRank(times, p))]);
    const earned = (10_000n - 500n) * BigInt(times.length); // the agent fee less the 5% cut
    for (const viewport of ['desktop', 'phone'] as const) {
      const page = await openPage(browser, viewport);
      await page.goto(`${api.baseUrl}/agents/${agentId}`);
      await page.getByTestId('agent-chart-latency').locator('canvas').first().waitFor();
      expect(await row(page, 'agent-chart-executions', hour)).toEqual([String(recent.length), String(times.length)]);
      expect(await row(page, 'agent-chart-success', hour)).toEqual([
        String(Math.round((times.length / recent.length) * 10_000) / 100),
      ]);
      expect(await row(page, 'agent-chart-latency', hour)).toEqual([bound(50), bound(95), bound(99)]);
      expect(await row(page, 'agent-chart-earnings', hour)).toEqual([
        usdc(earned),
        usdc(11_000n * BigInt(times.length)),
      ]);
      // Uptime: the probes' share per hour.
      expect(await row(page, 'uptime-chart', hour - HOUR)).toEqual(['75']);
      expect(await row(page, 'uptime-chart', hour)).toEqual(['100']);
      expect(await page.getByTestId('all-executions').textContent()).toBe(String(times.length + 1 + 1));
      expect(await page.getByTestId('chain-enabled').textContent()).toMatch(/^(yes|no)$/);
      // The snippets name this agent and capability.
      const snippet = page.getByTestId('snippet-translate');
      expect(await snippet.textContent()).toContain(`/api/v1/agents/${agentId}/capabilities/translate/execute`);
      await page.getByTestId('snippets-translate').getByRole('button', { name: 'CLI' }).click();
      expect(await snippet.textContent()).toBe(
        `agora execute ${agentId} translate --input '{"text":"..."}' --api ${api.baseUrl}`,
      );
      await page.getByTestId('snippets-translate').getByRole('button', { name: 'MCP' }).click();
      expect(JSON.parse((await snippet.textContent())!).mcpServers.agora.env.AGORA_MCP_CAPABILITIES).toBe(
        `${agentId}:translate`,
      );
      // A hostile example stays one word in a shell: the words bash sees are the command's, the input intact.
      await page.getByTestId('snippets-quoted').getByRole('button', { name: 'CLI' }).click();
      const cli = (await page.getByTestId('snippet-quoted').textContent())!;
      const words = execFileSync('bash', ['-c', `printf '%s\\n' ${cli.replace(/^agora execute /, '')}`])
        .toString()
        .trimEnd()
        .split('\n');
      expect(words).toEqual([agentId, 'quoted', '--input', JSON.stringify({ text: QUOTED }), '--api', api.baseUrl]);
      expect(existsSync('/tmp/agora-pwned')).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      expect(existsSync(await screenshot(page, 'agent-charts', viewport))).toBe(true);
      await page.context().close();
    }
  });
});
