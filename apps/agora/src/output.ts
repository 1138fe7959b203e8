import Table from 'cli-table3';
import { AgoraError } from '@agora/sdk';

/** Exit codes: scripts tell success from each kind of failure. */
export const EXIT = { ok: 0, api: 1, usage: 2, unreachable: 3, wallet: 4, refused: 5 } as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface Printer {
  json: boolean;
  /** A record as a two-column table, or as JSON. */
  record(data: unknown, title?: string): void;
  /** Rows as a table with these columns, or the whole value as JSON. */
  rows(data: unknown, rows: Record<string, unknown>[], columns: string[]): void;
  note(text: string): void;
}

const cell = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

export function printer(json: boolean): Printer {
  return {
    json,
    record(data, title) {
      if (json) return void process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
      if (title) process.stdout.write(`${title}\n`);
      const table = new Table({ style: { head: [], border: [] } });
      for (const [k, v] of Object.entries((data ?? {}) as Record<string, unknown>)) table.push({ [k]: cell(v) });
      process.stdout.write(`${table.toString()}\n`);
    },
    rows(data, rows, columns) {
      if (json) return void process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
      const table = new Table({ head: columns, style: { head: [], border: [] } });
      for (const r of rows) table.push(columns.map((c) => cell(r[c])));
      process.stdout.write(`${table.toString()}\n${rows.length} row(s)\n`);
    },
    note(text) {
      if (!json) process.stderr.write(`${text}\n`);
    },
  };
}

/** A failure after part of the work was done: with --json, what was done is printed beside the error. */
export class FailedWith extends Error {
  constructor(
    readonly failure: unknown,
    readonly done: Record<string, unknown>,
  ) {
    super((failure as Error)?.message ?? String(failure));
  }
}

/** Prints a failure (to stderr; as JSON on stdout with --json) and answers the exit code. */
export function report(thrown: unknown, json: boolean): number {
  const err = thrown instanceof FailedWith ? thrown.failure : thrown;
  const done = thrown instanceof FailedWith ? thrown.done : {};
  const { code, message, details, exit } =
    err instanceof CliError
      ? { code: 'CLI_ERROR', message: err.message, details: err.details, exit: err.exitCode }
      : err instanceof AgoraError
        ? {
            code: err.code,
            message: err.message,
            // A payment signed before the failure: its header is the proof for `status --payment` (never lost).
            details: err.payment ? { ...err.details, payment: err.payment } : err.details,
            exit:
              err.code === 'CONNECTION_FAILED'
                ? EXIT.unreachable
                : ['SPEND_CAP_EXCEEDED', 'PAYMENT_NOT_ALLOWED'].includes(err.code)
                  ? EXIT.refused
                  : EXIT.api,
          }
        : { code: 'CLI_ERROR', message: (err as Error)?.message ?? String(err), details: {}, exit: EXIT.usage };
  if (json)
    process.stdout.write(
      `${JSON.stringify({ success: false, error: { code, message, details }, ...done }, null, 2)}\n`,
    );
  else
    process.stderr.write(
      `error: ${code === 'CLI_ERROR' ? '' : `${code}: `}${message}${Object.keys(details).length ? `\n${JSON.stringify(details, null, 2)}` : ''}\n`,
    );
  return exit;
}
