/* npm run bench:chain (chain-bench.ts): the money check that ends each chain's runs. */
import { Wallet } from 'ethers';
import { Client } from 'pg';
import { LocalChain } from '../../scripts/local-chain';
import { gasOf, ledgerCheck, until } from './chain-bench-roles';

/** Every paid answer moved exactly one authorization on chain (by `sender`), and the ledger holds. */
export async function moneyCheck(
  label: string,
  db: Client,
  chain: LocalChain,
  sender: string,
  dbUrl: string,
): Promise<void> {
  // Money: every paid answer (registrations and completed executions, counted by the server: a request cut off at the end of
  // a run may still have been answered) moved exactly one authorization on chain, and the ledger holds.
  await until(
    async () =>
      (await db.query(`SELECT count(*)::int AS n FROM payments WHERE status NOT IN ('settled', 'released')`)).rows[0]
        .n === 0,
    'all settlements',
  );
  const { rows: counts } = await db.query(
    `SELECT (SELECT count(*) FROM agents)::int + (SELECT count(*) FROM executions WHERE status = 'completed' AND payment_id IS NOT NULL)::int AS paid,
            (SELECT count(*) FROM payments WHERE status = 'settled')::int AS settled`,
  );
  const onChain = (await gasOf(chain, sender, 0, await chain.provider.getBlockNumber())).settlements;
  const check = ledgerCheck(dbUrl);
  process.stdout.write(
    `  ${label}: ${counts[0].paid} paid answers, ${counts[0].settled} settled payments, ${onChain} authorizations used on chain by agora; ledger:check ${check ? 'passed' : 'FAILED'}\n`,
  );
  if (onChain !== counts[0].paid || counts[0].settled !== counts[0].paid || !check)
    throw new Error(`${label}: the money check failed`);
}

/**
 * A nonce taken outside agora: a transaction sent from the hot wallet with another tool spends the
 * nonce agora signs its next settlement with. Answers the time from the next paid execute to its
 * answer (settled, through a new transaction), in ms.
 */
export async function nonceRecoveryMs(
  db: Client,
  chain: LocalChain,
  hotWallet: { address: string; privateKey: string },
  o: { apiUrl: string; body: string; header: string },
): Promise<number> {
  const { rows } = await db.query(`SELECT next_nonce::int AS n FROM chain_nonces WHERE wallet = $1`, [
    hotWallet.address.toLowerCase(),
  ]);
  const outside = await new Wallet(hotWallet.privateKey, chain.provider).sendTransaction({
    to: hotWallet.address,
    value: 0n,
    nonce: rows[0].n,
  });
  await outside.wait();
  const t0 = performance.now();
  const res = await fetch(`${o.apiUrl}/api/v1/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-payment': o.header },
    body: o.body,
  });
  const ms = performance.now() - t0;
  const body = (await res.json()) as { data?: { settlement?: { status?: string } } };
  if (res.status !== 200 || body.data?.settlement?.status !== 'settled')
    throw new Error(`after a nonce taken outside agora the execute answered ${res.status}: ${JSON.stringify(body)}`);
  return Math.round(ms);
}
