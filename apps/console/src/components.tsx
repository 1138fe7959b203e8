import type { ReactNode } from 'react';
import { ApiError } from './api';

/** Loading, error and empty states every panel shares; `children` when there is data. */
export function Panel(props: {
  title: string;
  /** A refresh that failed while earlier data is shown keeps the data, with the error above it. */
  state: { isPending: boolean; error: unknown; data?: unknown };
  empty?: boolean;
  emptyText?: string;
  children: ReactNode;
  id?: string;
}) {
  const { title, state, empty, emptyText, children, id } = props;
  const heading = `${id ?? title.toLowerCase().replace(/\W+/g, '-')}-title`;
  return (
    <section className="panel" aria-labelledby={heading} aria-busy={state.isPending}>
      <h2 id={heading}>{title}</h2>
      {state.isPending ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : state.error && state.data === undefined ? (
        <p className="error" role="alert">
          {state.error instanceof ApiError ? `${state.error.code}: ${state.error.message}` : 'Could not load this.'}
        </p>
      ) : empty ? (
        <p className="muted">{emptyText ?? 'Nothing here yet.'}</p>
      ) : (
        <>
          {state.error !== null && state.error !== undefined && (
            <p className="error" role="alert">
              Could not refresh this; showing what was read before.
            </p>
          )}
          {children}
        </>
      )}
    </section>
  );
}

/** The API calls a page makes, each a link: the page's JSON twin. */
export function JsonTwin({ urls }: { urls: string[] }) {
  return (
    <aside className="twin" aria-label="API calls behind this page">
      <h2>JSON</h2>
      <ul>
        {urls.map((u) => (
          <li key={u}>
            <a href={u}>
              <code>GET {u}</code>
            </a>
          </li>
        ))}
      </ul>
    </aside>
  );
}

export function Stat({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

/** A table that may scroll sideways on a narrow screen: focusable, so a keyboard can scroll it too. */
export function Scroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** A table in a Scroll: its column headings, and the body rows as children. */
export function Table(props: { testId: string; label: string; head: string[]; children: ReactNode }) {
  return (
    <Scroll label={props.label}>
      <table data-testid={props.testId}>
        <thead>
          <tr>
            {props.head.map((h) => (
              <th scope="col" key={h}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </Scroll>
  );
}

/** An error an action met, announced to screen readers; nothing when there is none. */
export function Alert({ error }: { error?: string | null }) {
  return error ? (
    <p className="error" role="alert">
      {error}
    </p>
  ) : null;
}
