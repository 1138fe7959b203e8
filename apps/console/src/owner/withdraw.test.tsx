import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toMicros } from '@agora/sdk/money';
import { AGENT, fakeApi, fakeWallet, OWNER, show } from '../test/support';
import { WithdrawPanel } from './withdraw';

const TX = `0x${'1f'.repeat(32)}`;
const withdrawAnswers = () =>
  fakeApi({
    'POST /api/v1/payments/withdraw': { withdrawalId: 'w-1' },
    'GET /api/v1/payments/withdrawal/w-1': { id: 'w-1', status: 'completed', tx_hash: TX },
  });
const amountInput = () => screen.getByLabelText('Amount (USDC)');
const preview = () => screen.getByTestId('withdraw-preview').textContent;

describe('the withdraw form', () => {
  it.each([
    ['1.5', '1.500000', 'Fee 0.10, you receive 1.40 USDC'],
    [' 2 ', '2.000000', 'Fee 0.10, you receive 1.90 USDC'],
    ['4.35', '4.350000', 'Fee 0.10, you receive 4.25 USDC'],
    ['1.000001', '1.000001', 'Fee 0.10, you receive 0.900001 USDC'],
    ['01.10', '1.100000', 'Fee 0.10, you receive 1.00 USDC'],
    // 123456789012345678 micro-USDC is past 2^53: a float would have lost its last digits.
    ['123456789012.345678', '123456789012.345678', 'Fee 0.10, you receive 123456789012.245678 USDC'],
  ])('typed %j: sends exactly %j, after the preview %j', async (typed, amount, shown) => {
    const sent = withdrawAnswers();
    const signed = fakeWallet();
    const user = userEvent.setup();
    show(<WithdrawPanel agentId={AGENT} wallet={OWNER} />);
    await user.type(amountInput(), typed);
    expect(preview()).toBe(shown);
    await user.click(screen.getByRole('button', { name: 'Sign and withdraw' }));
    expect(await screen.findByTestId('withdraw-tx')).toHaveProperty('textContent', TX);
    const posts = sent.filter((s) => s.method === 'POST');
    expect(posts).toEqual([
      {
        method: 'POST',
        path: '/api/v1/payments/withdraw',
        body: { agentId: AGENT, amount, destinationWallet: OWNER },
        headers: expect.objectContaining({ 'X-Agent-Wallet': OWNER }) as unknown,
      },
    ]);
    expect(toMicros((posts[0].body as { amount: string }).amount)).toBe(toMicros(typed));
    expect(signed).toEqual([expect.stringMatching(/^agora-auth:[\w-]+:\d+:POST \/api\/v1\/payments\/withdraw$/)]);
    expect(screen.getByTestId('withdraw-progress').getAttribute('data-status')).toBe('completed');
  });

  it.each([
    ['', 'Enter an amount in USDC, e.g. 2.50'],
    ['0.5', 'At least 1.00 USDC'],
    ['0.999999', 'At least 1.00 USDC'],
    ['1.0000001', 'USDC has at most 6 decimals'],
    ['.1234567', 'USDC has at most 6 decimals'],
    ['-5', 'The amount must be positive'],
    ['-0.000001', 'The amount must be positive'],
    ['2\u00000', 'Enter an amount in USDC, e.g. 2.50'],
    ['1e3', 'Enter an amount in USDC, e.g. 2.50'],
    ['1,5', 'Enter an amount in USDC, e.g. 2.50'],
    ['0x10', 'Enter an amount in USDC, e.g. 2.50'],
    ['Infinity', 'Enter an amount in USDC, e.g. 2.50'],
    ['1234567890123', 'That amount is too large'],
    ['99999999999999999999.5', 'That amount is too large'],
  ])('typed %j: shows %j and sends nothing', async (typed, error) => {
    const sent = withdrawAnswers();
    const signed = fakeWallet();
    const user = userEvent.setup();
    show(<WithdrawPanel agentId={AGENT} wallet={OWNER} />);
    // Set as a paste would (a NUL cannot be typed key by key).
    fireEvent.change(amountInput(), { target: { value: typed } });
    expect(preview()).toBe(error);
    await user.click(screen.getByRole('button', { name: 'Sign and withdraw' }));
    expect(screen.getByRole('alert').textContent).toBe(error);
    expect(signed).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('a declined signature sends nothing and says so', async () => {
    const sent = withdrawAnswers();
    fakeWallet({ decline: true });
    const user = userEvent.setup();
    show(<WithdrawPanel agentId={AGENT} wallet={OWNER} />);
    await user.type(amountInput(), '2.00');
    await user.click(screen.getByRole('button', { name: 'Sign and withdraw' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The wallet declined to sign: nothing changed.');
    expect(sent).toEqual([]);
  });
});
