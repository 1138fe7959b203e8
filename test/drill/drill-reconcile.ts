/* npm run drill: the reconciliation, a pure function of what the chain, the database and the clients saw
   (drill-facts.ts reads them). Money is micro-USDC in bigints. `lost`: money that left someone on chain with
   no record that accounts for it (a payer charged with no payment row, a payout sent twice); `created`:
   money the records say moved that did not (a settled payment unused on chain, a completed payout never
   sent, a ledger balance above its rows). Rows still being worked on are `inFlight`, not discrepancies. */
import type { Attempt } from './drill-load';

export interface ChainFacts {
  /** Every transferWithAuthorization: AuthorizationUsed and the Transfer it made. */
  authorizations: { authorizer: string; nonce: string; to: string; value: bigint; txHash: string }[];
  /** Every token Transfer sent by the hot wallet. */
  outgoing: { to: string; value: bigint; txHash: string }[];
  hotBalance: bigint;
}

export interface DbFacts {
  payments: { id: string; payer: string; nonce: string; value: bigint; status: string }[];
  withdrawals: {
    id: string;
    agentId: string;
    destination: string;
    amount: bigint;
    fee: bigint;
    net: bigint;
    status: string;
    txHash: string | null;
  }[];
  refunds: {
    id: string;
    wallet: string;
    amount: bigint;
    payoutAmount: bigint | null;
    status: string;
    carriedBy: string | null;
    txHash: string | null;
  }[];
  /** Ledger balances by kind and owner (shards summed). */
  accounts: { kind: string; ownerId: string | null; balance: bigint }[];
  /** Charges by agent: the agent's earnings, and what the platform took (its fee and cut). */
  charges: { agentId: string; earnings: bigint; platformTake: bigint }[];
  /** Registration fees of the agents that exist (revenue). */
  registrationFees: bigint;
}

export interface Reconciliation {
  lost: bigint;
  created: bigint;
  /** Idempotency keys whose attempts moved more than one payment on chain: the extra payments. */
  doublePayments: number;
  /** Keyless requests answered 402 or 503 although their payment moved on chain. */
  paidRefused: number;
  /** Requests answered another error (or no answer) although their payment moved: informative. */
  paidOtherError: number;
  inFlight: number;
  /** What was reconciled: settled payments, completed withdrawals and refunds found on chain. */
  matched: { payments: number; withdrawals: number; refunds: number };
  problems: string[];
  /** The client-side counts by the phase of the request (a key's: its first attempt). */
  byPhase: Map<string, ClientCounts>;
}

export interface ClientCounts {
  doublePayments: number;
  paidRefused: number;
  paidOtherError: number;
}

const PAYMENT_PENDING = new Set(['reserved', 'settling', 'settlement_failed']);
const PAYOUT_PENDING = new Set(['pending', 'processing', 'failed']);
const lower = (s: string) => s.toLowerCase();
const micros = (v: bigint) => `${v} micro-USDC`;

export function reconcile(chain: ChainFacts, db: DbFacts, attempts: Attempt[]): Reconciliation {
  const r: Reconciliation = {
    lost: 0n,
    created: 0n,
    doublePayments: 0,
    paidRefused: 0,
    paidOtherError: 0,
    inFlight: 0,
    matched: { payments: 0, withdrawals: 0, refunds: 0 },
    problems: [],
    byPhase: new Map(),
  };
  const off = (amount: bigint, what: string) => {
    if (amount > 0n) r.created += amount;
    else r.lost -= amount;
    r.problems.push(`${what} (${amount > 0n ? 'created' : 'lost'} ${micros(amount > 0n ? amount : -amount)})`);
  };

  // Payments and the authorizations used on chain: one to one.
  const used = new Map(chain.authorizations.map((a) => [`${lower(a.authorizer)}:${lower(a.nonce)}`, a]));
  const rows = new Map(db.payments.map((p) => [`${lower(p.payer)}:${lower(p.nonce)}`, p]));
  for (const [key, a] of used) {
    const p = rows.get(key);
    if (!p) off(-a.value, `authorization ${key} used on chain (tx ${a.txHash}) with no payment row`);
    else if (PAYMENT_PENDING.has(p.status)) r.inFlight++;
    else if (p.status !== 'settled') off(-a.value, `payment ${p.id} is ${p.status} but its authorization moved`);
    else if (p.value !== a.value)
      off(p.value - a.value, `payment ${p.id} records ${p.value}, the chain moved ${a.value}`);
    else r.matched.payments++;
  }
  for (const [key, p] of rows)
    if (p.status === 'settled' && !used.has(key)) off(p.value, `payment ${p.id} settled but unused on chain`);
    else if (PAYMENT_PENDING.has(p.status) && !used.has(key)) r.inFlight++;

  // Payouts (withdrawals, refunds that carry their own transfer) and the hot wallet's transfers: one to one.
  const payouts = [
    ...db.withdrawals.map((w) => ({ id: w.id, to: w.destination, value: w.net, status: w.status, txHash: w.txHash })),
    ...db.refunds
      .filter((f) => !f.carriedBy)
      .map((f) => ({ id: f.id, to: f.wallet, value: f.payoutAmount ?? f.amount, status: f.status, txHash: f.txHash })),
  ];
  const sent = chain.outgoing.map((t) => ({ ...t, row: undefined as (typeof payouts)[number] | undefined }));
  const matched = new Set<string>();
  const byHash = new Map(payouts.filter((p) => p.txHash).map((p) => [lower(p.txHash!), p]));
  for (const t of sent) {
    const p = byHash.get(lower(t.txHash));
    if (p && !matched.has(p.id)) {
      t.row = p;
      matched.add(p.id);
    }
  }
  // A transfer whose row names another hash (a resend, a crash before the hash was kept): matched by recipient and amount.
  for (const t of sent.filter((x) => !x.row)) {
    const p = payouts.find(
      (x) =>
        !matched.has(x.id) &&
        lower(x.to) === lower(t.to) &&
        x.value === t.value &&
        !(x.txHash && sent.some((s) => lower(s.txHash) === lower(x.txHash!))),
    );
    if (p) {
      t.row = p;
      matched.add(p.id);
    }
  }
  for (const t of sent) {
    const p = t.row;
    if (!p) off(-t.value, `transfer ${t.txHash} of ${t.value} to ${t.to} matches no withdrawal or refund`);
    else if (p.status !== 'completed') {
      if (PAYOUT_PENDING.has(p.status)) r.inFlight++;
      else off(-t.value, `${p.id} is ${p.status} but its transfer ${t.txHash} was mined`);
    } else if (lower(p.to) !== lower(t.to) || p.value !== t.value)
      off(p.value - t.value, `${p.id} records ${p.value} to ${p.to}, the chain sent ${t.value} to ${t.to}`);
    else r.matched[p.id.startsWith('rfd_') ? 'refunds' : 'withdrawals']++;
  }
  for (const p of payouts)
    if (p.status === 'completed' && !matched.has(p.id)) off(p.value, `${p.id} completed with no transfer on chain`);
    else if (PAYOUT_PENDING.has(p.status) && !matched.has(p.id)) r.inFlight++;

  ledgerAgainstRows(db, r, off);

  // The hot wallet holds what came in less what went out: a catch-all, when nothing is in flight and nothing was found.
  const world = -sumOf(db.accounts, 'world');
  if (r.inFlight === 0 && r.problems.length === 0 && chain.hotBalance !== world)
    off(
      world - chain.hotBalance,
      `the hot wallet holds ${chain.hotBalance} on chain, the ledger's world says ${world}`,
    );

  clientsAgainstChain(attempts, used, r);
  return r;
}

function sumOf(accounts: DbFacts['accounts'], kind: string, owner?: string): bigint {
  return accounts
    .filter((a) => a.kind === kind && (owner === undefined || a.ownerId === owner))
    .reduce((s, a) => s + a.balance, 0n);
}

/** Each agent's, each payer's and the platform's balances in the ledger equal what their rows say. */
function ledgerAgainstRows(db: DbFacts, r: Reconciliation, off: (amount: bigint, what: string) => void): void {
  const agents = new Set([...db.charges.map((c) => c.agentId), ...db.withdrawals.map((w) => w.agentId)]);
  for (const a of db.accounts) if (['available', 'escrow', 'withdrawing'].includes(a.kind)) agents.add(a.ownerId!);
  const done = db.withdrawals.filter((w) => w.status === 'completed');
  for (const agent of agents) {
    const ledger = ['available', 'escrow', 'frozen', 'withdrawing', 'owed'].reduce(
      (s, kind) => s + sumOf(db.accounts, kind, agent),
      0n,
    );
    const earned = db.charges.filter((c) => c.agentId === agent).reduce((s, c) => s + c.earnings, 0n);
    const paidOut = done.filter((w) => w.agentId === agent).reduce((s, w) => s + w.amount, 0n);
    if (ledger !== earned - paidOut)
      off(
        ledger - (earned - paidOut),
        `agent ${agent}: ledger ${ledger}, rows ${earned} earned - ${paidOut} withdrawn`,
      );
  }
  const revenue = sumOf(db.accounts, 'revenue');
  const take = db.charges.reduce((s, c) => s + c.platformTake, 0n);
  const fees = done.reduce((s, w) => s + w.fee, 0n);
  if (revenue !== take + fees + db.registrationFees)
    off(
      revenue - (take + fees + db.registrationFees),
      `platform revenue: ledger ${revenue}, rows ${take} fees and cuts + ${fees} withdrawal fees + ${db.registrationFees} registrations`,
    );
  const owedBack = new Map<string, bigint>();
  for (const f of db.refunds)
    if (f.status !== 'completed') owedBack.set(lower(f.wallet), (owedBack.get(lower(f.wallet)) ?? 0n) + f.amount);
  for (const a of db.accounts.filter((x) => x.kind === 'refund_payable'))
    if (!owedBack.has(lower(a.ownerId!))) owedBack.set(lower(a.ownerId!), 0n);
  for (const [wallet, rowsSay] of owedBack) {
    const ledger = sumOf(db.accounts, 'refund_payable', wallet);
    if (ledger !== rowsSay) off(ledger - rowsSay, `payer ${wallet}: refund_payable ${ledger}, open refunds ${rowsSay}`);
  }
  const settled = db.payments.filter((p) => p.status === 'settled').reduce((s, p) => s + p.value, 0n);
  const refunded = db.refunds.filter((f) => f.status === 'completed').reduce((s, f) => s + f.amount, 0n);
  const world = -sumOf(db.accounts, 'world');
  const rowsWorld = settled - done.reduce((s, w) => s + w.net, 0n) - refunded;
  if (world !== rowsWorld) off(world - rowsWorld, `world: ledger ${world}, rows ${rowsWorld}`);
}

/** Idempotency keys charged once; no keyless request refused (402, 503) after its payment moved. */
function clientsAgainstChain(attempts: Attempt[], used: Map<string, unknown>, r: Reconciliation): void {
  const moved = (a: Attempt) => !!a.nonce && used.has(`${lower(a.payer!)}:${lower(a.nonce)}`);
  const count = (phase: string, what: keyof ClientCounts, n = 1) => {
    const c = r.byPhase.get(phase) ?? { doublePayments: 0, paidRefused: 0, paidOtherError: 0 };
    c[what] += n;
    r.byPhase.set(phase, c);
    r[what] += n;
  };
  const perKey = new Map<string, { phase: string; n: number }>();
  for (const a of attempts) {
    const key = a.key ? `${lower(a.payer!)}:${a.key}` : null;
    if (key && !perKey.has(key)) perKey.set(key, { phase: a.phase, n: 0 });
    if (key && moved(a)) perKey.get(key)!.n++;
    if (!moved(a) || (a.status >= 200 && a.status < 300)) continue;
    if (!a.key && (a.status === 402 || a.status === 503)) {
      count(a.phase, 'paidRefused');
      r.problems.push(
        `${a.kind} request answered ${a.status} ${a.code} after its payment ${a.nonce} moved (${a.phase})`,
      );
    } else count(a.phase, 'paidOtherError');
  }
  for (const [key, { phase, n }] of perKey)
    if (n > 1) {
      count(phase, 'doublePayments', n - 1);
      r.problems.push(`idempotency key ${key} paid ${n} times on chain (${phase})`);
    }
}
