import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { render, screen, within } from '@testing-library/react';
import { vi } from 'vitest';
import type { components } from '@agora/sdk';

type Schemas = components['schemas'];

/** A request a view sent to the API: its method, path with query, JSON body and headers. */
export interface Sent {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

/** An error envelope the fake API answers with. */
export class Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
  ) {}
}

const reply = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * The API as a fake `fetch`: `routes` maps `METHOD /path` (no query) to the `data` of its success
 * envelope (or a function of the request giving it, or a Refusal); any other request is the API's
 * 404 envelope. Returns every request sent, in order.
 */
export function fakeApi(routes: Record<string, unknown>): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (input: string | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://console.test');
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request = { method: init.method ?? 'GET', path: `${url.pathname}${url.search}`, body };
    sent.push({ ...request, headers: { ...(init.headers as Record<string, string>) } });
    const key = `${request.method} ${url.pathname}`;
    if (!(key in routes)) return reply(404, { success: false, error: { code: 'NOT_FOUND', message: key } });
    const route = routes[key];
    const data = typeof route === 'function' ? (route as (s: Sent) => unknown)(sent.at(-1)!) : route;
    if (data instanceof Refusal)
      return reply(data.status, { success: false, error: { code: data.code, message: data.message } });
    return reply(200, { success: true, data });
  });
  return sent;
}

export const OWNER = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';
export const AGENT = '6f1c2a9e-4b7d-4c1a-9a55-0d3b8e2f7c10';

/** A browser wallet (window.ethereum) for OWNER: the messages it signed, or a refusal (code 4001). */
export function fakeWallet(opts: { decline?: boolean } = {}): string[] {
  const signed: string[] = [];
  const text = (hex: string) =>
    new TextDecoder().decode(Uint8Array.from(hex.slice(2).match(/../g)!, (b) => parseInt(b, 16)));
  vi.stubGlobal('ethereum', {
    request: async ({ method, params }: { method: string; params?: unknown[] }) => {
      if (method === 'eth_requestAccounts') return [OWNER];
      if (method !== 'personal_sign') throw new Error(`unexpected wallet call ${method}`);
      if (opts.decline) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
      signed.push(text(String(params![0])));
      return `0x${'ab'.repeat(65)}`;
    },
  });
  return signed;
}

/** A view as the console shows it: with its query client (no retries) and a router for its links. */
export function show(ui: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The cells of a chart's data table ("Data" under the chart), row by row. */
export function chartTable(testId: string): string[][] {
  const table = document.querySelector(`[data-testid="${testId}-table"]`);
  if (!table) throw new Error(`no chart table ${testId}`);
  return [...table.querySelectorAll('tbody tr')].map((tr) =>
    [...tr.querySelectorAll('td')].map((td) => td.textContent!),
  );
}

/** The values the chart's canvas was given, per line (see plot-stub.tsx; the canvas loads after the page). */
export async function plotted(testId: string): Promise<(number | null)[][]> {
  const plot = await within(screen.getByTestId(testId)).findByRole('img');
  return JSON.parse(plot.getAttribute('data-plot')!) as (number | null)[][];
}

const AT = '2026-03-01T10:00:00.000Z';

export const balance = (b: Partial<Schemas['BalanceResponse']>): Schemas['BalanceResponse'] => ({
  agentId: AGENT,
  available: '0.000000',
  reserved: '0.000000',
  reservedUntil: null,
  owed: '0.000000',
  pending: '0.000000',
  totalEarned: '0.000000',
  totalWithdrawn: '0.000000',
  totalDisputed: '0.000000',
  executionCount: 0,
  escrow: { pendingCount: 0, pendingTotal: '0.000000' },
  ...b,
});

export const transaction = (
  t: Partial<Schemas['TransactionListItemResponse']>,
): Schemas['TransactionListItemResponse'] => ({
  id: 'tx',
  agent_earnings: '0.000000',
  amount: '0.000000',
  capability_id: 'echo',
  created_at: AT,
  execution_time: 10,
  livemode: false,
  platformCut: '0.000000',
  providing_agent: AGENT,
  requesting_agent: OWNER,
  status: 'completed',
  ...t,
});

export const withdrawal = (w: Partial<Schemas['WithdrawalResponse']>): Schemas['WithdrawalResponse'] => ({
  id: 'w',
  agent_id: AGENT,
  amount: '0.000000',
  fee: '0.100000',
  net_amount: '0.000000',
  completed_at: null,
  created_at: AT,
  destination_wallet: OWNER,
  livemode: false,
  status: 'pending',
  tx_hash: null,
  ...w,
});

export const execution = (e: Partial<Schemas['ExecutionListItemDto']>): Schemas['ExecutionListItemDto'] => ({
  requestId: 'r',
  agentFee: '0.000000',
  agentId: AGENT,
  agentName: 'Echo',
  capabilityId: 'echo',
  completedAt: AT,
  createdAt: AT,
  hasReceipt: true,
  latencyMs: 12,
  payer: OWNER,
  settlementStatus: 'settled',
  status: 'completed',
  total: '0.000000',
  transactionId: 'tx',
  ...e,
});
