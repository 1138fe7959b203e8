import { FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { components } from '@agora/sdk';
import { ApiError, urlOf, useApi } from '../api';
import { Alert, JsonTwin, Panel, Stat } from '../components';
import { checkReceipt, ReceiptCheck } from '../receipt';
import { Timeline } from '../timeline';

type Execution = components['schemas']['ExecutionResponse'];

/**
 * An execution (by request id; by transaction id, its timeline alone): status, cost and fee split, settlement,
 * its timeline; its output to the payer signed in (console session), or with the payment proof, its output and
 * receipt checked here.
 */
export function ExecutionPage() {
  const { requestId = '' } = useParams();
  const byTransaction = requestId.startsWith('tx_');
  const timeline = useApi('/api/v1/execute/{id}/timeline', { id: requestId }, { refetchMs: 10_000 });
  const exec = useApi('/api/v1/execute/{requestId}', { requestId }, { enabled: !byTransaction });
  const e = exec.data;
  // A transaction id: the execution's timeline alone. Its request id is the payer's only (it names the run to
  // read or retry), so the API never answers it for a transaction id; the payer reaches the rest from its own lists.
  if (byTransaction)
    return (
      <>
        <h1>
          Transaction <code>{requestId}</code>
        </h1>
        <Panel title="Timeline" state={timeline}>
          {timeline.data && <Timeline events={timeline.data.events} />}
        </Panel>
        <JsonTwin urls={[timeline.url]} />
      </>
    );
  return (
    <>
      <h1>
        Execution <code>{requestId}</code>
      </h1>
      <Panel title="Outcome" state={exec}>
        {e && (
          <dl className="stats">
            <Stat label="Status" value={e.status} testId="exec-status" />
            <Stat label="Total (USDC)" value={e.cost?.total ?? '-'} testId="exec-total" />
            <Stat label="Platform fee" value={e.cost?.platformFee ?? '-'} testId="exec-platform-fee" />
            <Stat label="Agent fee" value={e.cost?.agentFee ?? '-'} testId="exec-agent-fee" />
            <Stat label="Refunded" value={e.cost?.refunded ?? '-'} testId="exec-refunded" />
            <Stat label="Time (ms)" value={e.executionTime ?? '-'} testId="exec-time" />
            <Stat label="Settlement" value={e.settlement?.status ?? '-'} testId="exec-settlement" />
            <Stat label="Real money" value={e.livemode ? 'yes' : 'no (test mode)'} testId="exec-livemode" />
          </dl>
        )}
        {e?.settlement?.txHash && (
          <p>
            Settlement transaction: <code data-testid="exec-tx">{e.settlement.txHash}</code>
          </p>
        )}
      </Panel>
      {e?.output !== undefined && (
        <section className="panel" aria-labelledby="own-output-title">
          {/* Answered only to the payer's console session (signed in as the paying wallet). */}
          <h2 id="own-output-title">Your output (signed in as its payer)</h2>
          <pre data-testid="exec-session-output">{JSON.stringify(e.output, null, 2)}</pre>
        </section>
      )}
      <Panel title="Timeline" state={timeline}>
        {timeline.data && <Timeline events={timeline.data.events} />}
      </Panel>
      <ProofPanel key={requestId} requestId={requestId} />
      <ReceiptPanel />
      <JsonTwin urls={[exec.url, timeline.url]} />
      <p>
        <Link to="/">Back to the explorer</Link>
      </p>
    </>
  );
}

/** The payer's view: the payment header that paid shows the output and the receipt (kept in memory only). */
function ProofPanel({ requestId }: { requestId: string }) {
  const [header, setHeader] = useState('X-PAYMENT');
  const [proof, setProof] = useState('');
  const [state, setState] = useState<{ data?: Execution; error?: string; check?: ReceiptCheck; busy?: boolean }>({});
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setState({ busy: true });
    try {
      // Not cached: the output is the payer's.
      const res = await fetch(urlOf('/api/v1/execute/{requestId}', { requestId }), {
        headers: { accept: 'application/json', [header]: proof.trim() },
        cache: 'no-store',
      });
      const body = (await res.json()) as {
        success: boolean;
        data?: Execution;
        error?: { code: string; message: string };
      };
      if (!body.success || !body.data)
        throw new ApiError(res.status, body.error?.code ?? 'HTTP_ERROR', body.error?.message ?? '');
      // Another header is answered like any visitor: without the output. So is the payer of a run that has none.
      if (body.data.output === undefined && !body.data.outputPruned)
        throw new ApiError(
          200,
          'NO_OUTPUT',
          body.data.status === 'completed' && body.data.settlement?.status === 'settled'
            ? 'this header did not pay for this execution, so no output is shown'
            : `no output to show: the execution is ${body.data.status}, its settlement ${body.data.settlement?.status ?? 'none'}`,
        );
      setProof('');
      const r = body.data.receipt;
      const check =
        r?.format === 'jws'
          ? await checkReceipt(r.signature, body.data.output, body.data.receiptSalt, requestId)
          : undefined;
      setState({ data: body.data, check });
    } catch (err) {
      setState({ error: err instanceof ApiError ? `${err.code}: ${err.message}` : 'Could not load this.' });
    }
  };
  return (
    <section className="panel" aria-labelledby="proof-title">
      <h2 id="proof-title">Output (for the payer)</h2>
      <form onSubmit={submit} className="search">
        <label htmlFor="proof-header">Header</label>
        <select id="proof-header" value={header} onChange={(e) => setHeader(e.target.value)}>
          <option value="X-PAYMENT">X-PAYMENT (x402 v1)</option>
          <option value="PAYMENT-SIGNATURE">PAYMENT-SIGNATURE (x402 v2)</option>
        </select>
        <label htmlFor="proof">Payment header that paid</label>
        <input
          id="proof"
          value={proof}
          onChange={(e) => setProof(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" disabled={!proof.trim() || state.busy}>
          Show
        </button>
      </form>
      <Alert error={state.error} />
      {state.data && (
        <>
          <h3>Output</h3>
          <pre data-testid="exec-output">{JSON.stringify(state.data.output ?? null, null, 2)}</pre>
          {state.check && <Verdict check={state.check} testId="payer-receipt" />}
        </>
      )}
    </section>
  );
}

/** Any receipt (a compact JWS, e.g. from a PAYMENT-RESPONSE) checked in this browser against the published key. */
function ReceiptPanel() {
  const [jws, setJws] = useState('');
  const [check, setCheck] = useState<ReceiptCheck | null>(null);
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setCheck(await checkReceipt(jws).catch(() => ({ valid: false, reason: 'it could not be checked (network)' })));
  };
  return (
    <section className="panel" aria-labelledby="receipt-title">
      <h2 id="receipt-title">Check a receipt</h2>
      <form onSubmit={submit} className="search">
        <label htmlFor="jws">Receipt (compact JWS)</label>
        <input id="jws" value={jws} onChange={(e) => setJws(e.target.value)} autoComplete="off" spellCheck={false} />
        <button type="submit" disabled={!jws.trim()}>
          Check
        </button>
      </form>
      {check && <Verdict check={check} testId="receipt-verdict" />}
    </section>
  );
}

function Verdict({ check, testId }: { check: ReceiptCheck; testId: string }) {
  return (
    <div data-testid={testId} data-valid={String(check.valid)} role="status">
      {check.valid ? (
        <>
          <p className="ok">Valid: signed by this deployment&apos;s published key.</p>
          {check.outputMatches !== undefined && (
            <p className={check.outputMatches ? 'ok' : 'error'}>
              {check.outputMatches
                ? 'The output matches its content hash.'
                : 'The output does NOT match its content hash.'}
            </p>
          )}
          {check.requestMatches !== undefined && (
            <p className={check.requestMatches ? 'ok' : 'error'}>
              {check.requestMatches
                ? 'It is the receipt of this execution (its request commitment opens to this request id).'
                : 'It is NOT the receipt of this execution.'}
            </p>
          )}
          <pre>{JSON.stringify(check.payload, null, 2)}</pre>
        </>
      ) : (
        <p className="error">Invalid: {check.reason}.</p>
      )}
    </div>
  );
}
