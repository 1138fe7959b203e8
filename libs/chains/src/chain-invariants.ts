import { InvariantCheck } from '@app/ledger';

/**
 * I5 for chains (reliability.md §1.3): a chain's available budget is its ledger budget less its
 * running nodes' reservations; a final chain holds nothing and runs nothing.
 */
export const CHAIN_CHECKS: InvariantCheck[] = [
  {
    id: 'I5-chain-available',
    description: "each chain's available budget = chain:budget - its running nodes' reservations (never below 0)",
    async run(m) {
      const rows = await m.query(
        `SELECT c.id, c.available::text AS available, coalesce(a.balance, 0)::text AS budget, coalesce(n.reserved, 0)::text AS reserved
           FROM chains c
           LEFT JOIN ledger_accounts a ON a.code = 'chain:' || c.id || ':budget'
           LEFT JOIN (SELECT chain_id, sum(reserved) AS reserved FROM chain_nodes WHERE status = 'running' GROUP BY chain_id) n ON n.chain_id = c.id
          WHERE c.status IN ('pending', 'running') AND c.available <> coalesce(a.balance, 0) - coalesce(n.reserved, 0)`,
      );
      return rows.map(
        (r: Record<string, string>) =>
          `chain ${r.id}: available ${r.available}, budget ${r.budget}, running nodes reserve ${r.reserved}`,
      );
    },
  },
  {
    id: 'I5-chain-final',
    description:
      'a final chain has nothing left in its budget (or the former in-flight account), nothing available and nothing running',
    async run(m) {
      const rows = await m.query(
        `SELECT c.id, c.status, c.running, c.available::text AS available, coalesce(sum(a.balance), 0)::text AS held
           FROM chains c LEFT JOIN ledger_accounts a ON a.code IN ('chain:' || c.id || ':budget', 'chain:' || c.id || ':inflight')
          WHERE c.status IN ('completed', 'failed', 'partial')
          GROUP BY c.id HAVING coalesce(sum(a.balance), 0) <> 0 OR c.running <> 0 OR c.available <> 0`,
      );
      return rows.map(
        (r: Record<string, string>) =>
          `final chain ${r.id} (${r.status}) still holds ${r.held} (available ${r.available}) with ${r.running} running`,
      );
    },
  },
];
