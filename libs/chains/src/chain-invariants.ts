import { InvariantCheck } from '@app/ledger';

/** I5 for chains (reliability.md §1.3): chain:inflight = Σ running nodes' reservations; a final chain's accounts are empty. */
export const CHAIN_CHECKS: InvariantCheck[] = [
  {
    id: 'I5-chain-inflight',
    description: "each chain's in-flight account holds exactly its running nodes' reservations",
    async run(m) {
      const rows = await m.query(
        `SELECT c.id, coalesce(a.balance, 0)::text AS inflight, coalesce(n.reserved, 0)::text AS reserved
           FROM chains c
           LEFT JOIN ledger_accounts a ON a.code = 'chain:' || c.id || ':inflight'
           LEFT JOIN (SELECT chain_id, sum(reserved) AS reserved FROM chain_nodes WHERE status = 'running' GROUP BY chain_id) n ON n.chain_id = c.id
          WHERE coalesce(a.balance, 0) <> coalesce(n.reserved, 0)`,
      );
      return rows.map((r: Record<string, string>) => `chain ${r.id}: inflight ${r.inflight}, running nodes reserve ${r.reserved}`);
    },
  },
  {
    id: 'I5-chain-final',
    description: 'a final chain has nothing left in its budget or in flight, and nothing running',
    async run(m) {
      const rows = await m.query(
        `SELECT c.id, c.status, c.running, coalesce(sum(a.balance), 0)::text AS held
           FROM chains c LEFT JOIN ledger_accounts a ON a.code IN ('chain:' || c.id || ':budget', 'chain:' || c.id || ':inflight')
          WHERE c.status IN ('completed', 'failed', 'partial')
          GROUP BY c.id HAVING coalesce(sum(a.balance), 0) <> 0 OR c.running <> 0`,
      );
      return rows.map((r: Record<string, string>) => `final chain ${r.id} (${r.status}) still holds ${r.held} with ${r.running} running`);
    },
  },
];
