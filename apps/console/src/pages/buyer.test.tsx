import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { chartTable, execution, fakeApi, OWNER, plotted, Refusal, show } from '../test/support';
import { BuyerPage, spendByDay } from './buyer';

vi.mock('../plot', () => import('../test/plot-stub'));

const DAY1 = '2026-03-01';
const DAY2 = '2026-03-02';
const RUNS = [
  execution({ requestId: 'r-1', total: '0.100000', createdAt: `${DAY1}T09:00:00.000Z` }),
  execution({ requestId: 'r-2', total: '0.200000', createdAt: `${DAY1}T23:59:59.999Z` }),
  execution({
    requestId: 'r-3',
    total: '5.000000',
    status: 'failed',
    transactionId: null,
    createdAt: `${DAY1}T10:00:00.000Z`,
  }),
  // 4503599627.370497 twice is 9007199254740994 micro-USDC, past 2^53: floats would miss it.
  execution({ requestId: 'r-4', total: '4503599627.370497', createdAt: `${DAY2}T08:00:00.000Z` }),
  execution({ requestId: 'r-5', total: '4503599627.370497', createdAt: `${DAY2}T09:00:00.000Z` }),
];
const signedIn = (next: string | null = null) =>
  fakeApi({
    'GET /api/v1/console/session': { id: 's-1', wallet: OWNER, agentId: null },
    [`GET /api/v1/payers/${OWNER}/executions`]: { executions: RUNS, next },
    [`GET /api/v1/payers/${OWNER}/disputes`]: { disputes: [] },
  });

describe('the buyer view', () => {
  it('shows what the wallet spent per day, summed exactly, and each run with its cost', async () => {
    signedIn();
    show(<BuyerPage />);
    const table = await screen.findByTestId('buyer-executions');
    expect(chartTable('spend-chart').map(([, spent, runs]) => [spent, runs])).toEqual([
      ['0.300000', '2'],
      ['9007199254.740994', '2'],
    ]);
    // The canvas gets floats (pixels only): the second is about 9.007e9 USDC.
    const [spent] = await plotted('spend-chart');
    expect(spent[0]).toBe(0.3);
    expect(spent[1]).toBeCloseTo(9_007_199_254.74, 1);
    const costs = Object.fromEntries(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => [row.getAttribute('data-request'), row.querySelectorAll('td')[3].textContent]),
    );
    expect(costs).toEqual({
      'r-1': '0.100000',
      'r-2': '0.200000',
      'r-3': '0 (not charged)',
      'r-4': '4503599627.370497',
      'r-5': '4503599627.370497',
    });
  });

  it('leaves out the oldest day when older runs exist beyond the page', async () => {
    signedIn('cursor');
    show(<BuyerPage />);
    await screen.findByTestId('buyer-executions');
    expect(chartTable('spend-chart').map((r) => r[1])).toEqual(['9007199254.740994']);
  });

  it('asks a signed-out visitor to sign in', async () => {
    fakeApi({ 'GET /api/v1/console/session': new Refusal(401, 'UNAUTHORIZED', 'No session') });
    show(<BuyerPage />);
    expect((await screen.findByTestId('buyer-signed-out')).textContent).toBe(
      'Sign in with your paying wallet to see what it paid for.',
    );
  });

  it('sums per UTC day in micro-USDC', () => {
    expect(spendByDay(RUNS, false)).toEqual([
      { at: `${DAY1}T00:00:00.000Z`, spent: 300_000n, runs: 2 },
      { at: `${DAY2}T00:00:00.000Z`, spent: 9_007_199_254_740_994n, runs: 2 },
    ]);
  });
});
