import { FormEvent, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useApi } from '../api';
import { Alert } from '../components';
import { actionError, agentAction } from '../actions';
import { formatMicros, parseTyped, shortUsdc, TypedAmount } from '../money';

/** As the API documents them: a withdrawal is at least 1.00 USDC, and 0.10 of it is the fee. */
const FEE = 100_000n;
const MINIMUM = 1_000_000n;
const STEPS = ['pending', 'processing', 'completed'] as const;

/** The amount typed, in micro-USDC exactly, or what is wrong with it (shown in place of the preview). */
function withdrawable(text: string): TypedAmount {
  const typed = parseTyped(text);
  return typed.error === undefined && typed.micros < MINIMUM ? { error: 'At least 1.00 USDC' } : typed;
}

/** Withdraw: the amount, its fee and net before the wallet signs, then the withdrawal's progress to its transaction. */
export function WithdrawPanel({ agentId, wallet }: { agentId: string; wallet: string }) {
  const client = useQueryClient();
  const [amount, setAmount] = useState('');
  const [to, setTo] = useState(wallet);
  const [state, setState] = useState<{ busy?: boolean; error?: string; id?: string }>({});
  const typed = withdrawable(amount);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (typed.error !== undefined) return setState({ error: typed.error });
    setState({ busy: true });
    try {
      const w = await agentAction<{ withdrawalId: string }>(agentId, 'POST', '/api/v1/payments/withdraw', {
        agentId,
        // The amount as parsed and previewed, written back exactly ("1.5" is sent as "1.500000").
        amount: formatMicros(typed.micros),
        destinationWallet: to.trim(),
      });
      setState({ id: w.withdrawalId });
      await client.invalidateQueries();
    } catch (err) {
      setState({ error: actionError(err) });
    }
  };
  return (
    <section className="panel" aria-labelledby="withdraw-title">
      <h2 id="withdraw-title">Withdraw</h2>
      <form onSubmit={submit} className="search">
        <label htmlFor="wd-amount">Amount (USDC)</label>
        <input id="wd-amount" value={amount} onChange={(e) => setAmount(e.target.value)} inputMode="decimal" />
        <label htmlFor="wd-to">To wallet</label>
        <input id="wd-to" value={to} onChange={(e) => setTo(e.target.value)} maxLength={42} />
        <p data-testid="withdraw-preview" aria-live="polite">
          {typed.error ?? `Fee 0.10, you receive ${shortUsdc(typed.micros - FEE)} USDC`}
        </p>
        <button type="submit" disabled={state.busy && !state.error}>
          {state.busy ? 'Waiting for the wallet…' : 'Sign and withdraw'}
        </button>
      </form>
      <Alert error={state.error} />
      {state.id && <Progress id={state.id} />}
    </section>
  );
}

function Progress({ id }: { id: string }) {
  const w = useApi('/api/v1/payments/withdrawal/{id}', { id }, { refetchMs: 1_000 });
  const status = w.data?.status ?? 'pending';
  const reached = STEPS.indexOf(status as (typeof STEPS)[number]);
  return (
    <div data-testid="withdraw-progress" data-status={status}>
      <p>
        Withdrawal <code>{id}</code>: <strong>{status}</strong>
      </p>
      <ol className="steps">
        {STEPS.map((s, i) => (
          <li key={s} className={i <= reached ? 'done' : ''}>
            {s === 'pending' ? 'Recorded' : s === 'processing' ? 'Sending on chain' : 'Sent'}
          </li>
        ))}
      </ol>
      {status === 'failed' && <p className="error">The transfer failed; the amount is back in your balance.</p>}
      {w.data?.tx_hash && (
        <p>
          Transaction <code data-testid="withdraw-tx">{w.data.tx_hash}</code>
        </p>
      )}
    </div>
  );
}
