/* npm run drill: what the reconciliation compares, read from the chain (the token's logs) and from the drill's
   database, and what counts as work still in flight. */
import { AbiCoder, id as eventTopic } from 'ethers';
import { Client } from 'pg';
import { LocalChain } from '../../scripts/local-chain';
import { ChainFacts, DbFacts } from './drill-reconcile';

const AUTHORIZATION_USED = eventTopic('AuthorizationUsed(address,bytes32)');
const TRANSFER = eventTopic('Transfer(address,address,uint256)');
const topicAddress = (topic: string) => `0x${topic.slice(26)}`.toLowerCase();

export async function readChainFacts(chain: LocalChain): Promise<ChainFacts> {
  const address = chain.usdcAddress;
  const [auths, transfers] = await Promise.all([
    chain.provider.getLogs({ address, fromBlock: 0, toBlock: 'latest', topics: [AUTHORIZATION_USED] }),
    chain.provider.getLogs({ address, fromBlock: 0, toBlock: 'latest', topics: [TRANSFER] }),
  ]);
  const at = new Map(transfers.map((t) => [`${t.transactionHash}:${t.index}`, t]));
  const value = (data: string) => BigInt(AbiCoder.defaultAbiCoder().decode(['uint256'], data)[0]);
  const hot = chain.platform.address.toLowerCase();
  return {
    authorizations: auths.map((a) => {
      // The token emits AuthorizationUsed, then the Transfer it makes.
      const t = at.get(`${a.transactionHash}:${a.index + 1}`);
      if (!t) throw new Error(`AuthorizationUsed in ${a.transactionHash} without its Transfer`);
      return {
        authorizer: topicAddress(a.topics[1]),
        nonce: a.topics[2].toLowerCase(),
        to: topicAddress(t.topics[2]),
        value: value(t.data),
        txHash: a.transactionHash,
      };
    }),
    outgoing: transfers
      .filter((t) => topicAddress(t.topics[1]) === hot)
      .map((t) => ({ to: topicAddress(t.topics[2]), value: value(t.data), txHash: t.transactionHash })),
    hotBalance: await chain.balanceOf(chain.platform.address),
  };
}

export async function readDbFacts(db: Client): Promise<DbFacts> {
  const big = (v: string | null) => (v === null ? null : BigInt(v));
  const queries = [
    `SELECT id, payer, nonce, value::text, status FROM payments`,
    `SELECT id, agent_id, destination_wallet, amount::text, fee::text, net_amount::text, status, tx_hash FROM withdrawals`,
    `SELECT id, wallet, amount::text, payout_amount::text, status, carried_by, tx_hash FROM refunds`,
    `SELECT kind, owner_id, sum(balance)::text AS balance FROM ledger_accounts GROUP BY kind, owner_id`,
    `SELECT providing_agent_id AS agent, sum(agent_earnings)::text AS earnings,
            sum(platform_fee + platform_cut)::text AS take FROM transactions GROUP BY providing_agent_id`,
    `SELECT coalesce(sum(p.value), 0)::text AS fees FROM payments p
      WHERE p.purpose = 'registration' AND p.status = 'settled' AND EXISTS (SELECT 1 FROM agents a WHERE a.id::text = p.ref_id)`,
  ];
  // One snapshot: the balances and the rows they are compared with as of one moment.
  const results: any[][] = [];
  await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    for (const sql of queries) results.push((await db.query(sql)).rows);
  } finally {
    await db.query('COMMIT');
  }
  const [payments, withdrawals, refunds, accounts, charges, registrations] = results;
  return {
    payments: payments.map((p) => ({
      id: p.id,
      payer: p.payer,
      nonce: p.nonce,
      value: BigInt(p.value),
      status: p.status,
    })),
    withdrawals: withdrawals.map((w) => ({
      id: w.id,
      agentId: w.agent_id,
      destination: w.destination_wallet,
      amount: BigInt(w.amount),
      fee: BigInt(w.fee),
      net: BigInt(w.net_amount),
      status: w.status,
      txHash: w.tx_hash,
    })),
    refunds: refunds.map((f) => ({
      id: f.id,
      wallet: f.wallet,
      amount: BigInt(f.amount),
      payoutAmount: big(f.payout_amount),
      status: f.status,
      carriedBy: f.carried_by,
      txHash: f.tx_hash,
    })),
    accounts: accounts.map((a) => ({ kind: a.kind, ownerId: a.owner_id, balance: BigInt(a.balance) })),
    charges: charges.map((c) => ({ agentId: c.agent, earnings: BigInt(c.earnings), platformTake: BigInt(c.take) })),
    registrationFees: BigInt(registrations[0].fees),
  };
}

/** Rows some process still has to finish: unsettled payments, runs not charged, payouts not paid, transactions unmined. */
export async function inFlight(db: Client): Promise<Record<string, number>> {
  const { rows } = await db.query(
    `SELECT (SELECT count(*) FROM payments WHERE status IN ('reserved', 'settling', 'settlement_failed'))::int AS payments,
            (SELECT count(*) FROM executions WHERE status = 'pending' OR settlement_status = 'settlement_pending')::int AS executions,
            (SELECT count(*) FROM withdrawals WHERE status IN ('pending', 'processing'))::int AS withdrawals,
            (SELECT count(*) FROM refunds WHERE status IN ('pending', 'processing', 'failed'))::int AS refunds,
            (SELECT count(*) FROM chain_txs WHERE status = 'signed')::int AS chain_txs`,
  );
  return rows[0];
}

/** The ids of the rows in flight now, to tell when exactly these have finished. */
export async function inFlightIds(db: Client): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT id FROM payments WHERE status IN ('reserved', 'settling', 'settlement_failed')
     UNION ALL SELECT id FROM executions WHERE status = 'pending' OR settlement_status = 'settlement_pending'
     UNION ALL SELECT id FROM withdrawals WHERE status IN ('pending', 'processing')
     UNION ALL SELECT id FROM refunds WHERE status IN ('pending', 'processing', 'failed')
     UNION ALL SELECT id FROM chain_txs WHERE status = 'signed'`,
  );
  return rows.map((r) => r.id as string);
}

/** How many of `ids` are still in flight. */
export async function stillInFlight(db: Client, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const now = new Set(await inFlightIds(db));
  return ids.filter((i) => now.has(i)).length;
}
