import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { AGENT, balance, chartTable, fakeApi, plotted, show, transaction, withdrawal } from '../test/support';
import { BalancePanel } from './balance';

vi.mock('../plot', () => import('../test/plot-stub'));

const answers = (
  b: ReturnType<typeof balance>,
  txs = [] as ReturnType<typeof transaction>[],
  wds = [] as ReturnType<typeof withdrawal>[],
) =>
  fakeApi({
    [`GET /api/v1/payments/balance/${AGENT}`]: b,
    [`GET /api/v1/payments/history/${AGENT}`]: txs,
    [`GET /api/v1/payments/withdrawals/${AGENT}`]: { withdrawals: wds },
  });
const stat = (testId: string) => screen.getByTestId(testId).textContent;

describe('the balance view', () => {
  it('shows what the agent holds, each figure as the API wrote it, and the balance after each movement', async () => {
    answers(
      balance({ available: '3.250000', pending: '1.500000', totalWithdrawn: '2.000000', totalDisputed: '0.300000' }),
      [
        transaction({ id: 'tx-1', agent_earnings: '0.750000', created_at: '2026-03-01T10:00:00.000Z' }),
        transaction({ id: 'tx-2', agent_earnings: '1.000000', created_at: '2026-03-01T11:00:00.000Z' }),
        transaction({
          id: 'tx-3',
          agent_earnings: '9.000000',
          status: 'refunded',
          created_at: '2026-03-01T11:30:00.000Z',
        }),
      ],
      [
        withdrawal({ id: 'w-1', amount: '2.000000', status: 'completed', created_at: '2026-03-01T12:00:00.000Z' }),
        withdrawal({ id: 'w-2', amount: '5.000000', status: 'failed', created_at: '2026-03-01T12:30:00.000Z' }),
      ],
    );
    show(<BalancePanel agentId={AGENT} />);
    expect(await screen.findByTestId('owner-held')).toHaveProperty('textContent', '4.750000');
    expect([stat('owner-available'), stat('owner-pending'), stat('owner-withdrawn'), stat('owner-disputed')]).toEqual([
      '3.250000',
      '1.500000',
      '2.000000',
      '0.300000',
    ]);
    expect(screen.queryByTestId('owner-reserved')).toBeNull();
    // Walked back from 4.75 held now: the refunded charge and the failed withdrawal moved nothing.
    const rows = chartTable('balance-chart').map(([, balance, what]) => [balance, what]);
    expect(rows).toEqual([
      ['5.750000', '+0.750000 tx-1'],
      ['6.750000', '+1.000000 tx-2'],
      ['4.750000', '−2.000000 w-1'],
    ]);
    expect((await plotted('balance-chart'))[0]).toEqual([5.75, 6.75, 4.75]);
  });

  it('adds and walks back amounts past a float precision, exactly', async () => {
    // 9007199254740993 micro-USDC is 2^53 + 1: as a float it is 9007199254740992.
    answers(balance({ available: '9007199254.740993', pending: '0.000001', reserved: '0.500000' }), [
      transaction({ id: 'tx-1', agent_earnings: '0.000001' }),
    ]);
    show(<BalancePanel agentId={AGENT} />);
    expect(await screen.findByTestId('owner-held')).toHaveProperty('textContent', '9007199254.740994');
    expect(stat('owner-reserved')).toBe('0.500000');
    expect(chartTable('balance-chart').map((r) => r[1])).toEqual(['9007199254.740994']);
  });

  it('says so when the API refuses', async () => {
    fakeApi({});
    show(<BalancePanel agentId={AGENT} />);
    expect((await screen.findByRole('alert')).textContent).toBe(`NOT_FOUND: GET /api/v1/payments/balance/${AGENT}`);
  });
});
