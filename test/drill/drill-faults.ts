/* npm run drill: the faults, each injected for a bounded time while the load runs. `inject` answers once the
   fault has ended (the process restarted, the database reachable again, anvil running again): recovery is
   measured from then. */
import { Wallet } from 'ethers';
import { anvilPid, DrillStack, sleep } from './drill-processes';

export interface Fault {
  name: string;
  inject(stack: DrillStack): Promise<void>;
}

/** Whatever a fault left stopped is started again (cleanup after a failure mid-fault). */
export function resumeAll(stack: DrillStack): void {
  try {
    process.kill(anvilPid(), 'SIGCONT');
  } catch {
    /* no anvil */
  }
  stack.proxy.restore();
}

export const FAULTS: Fault[] = [
  {
    name: 'api kill -9 (restarted after 2 s)',
    async inject(stack) {
      await stack.apis[0].kill('SIGKILL');
      await sleep(2_000);
      void stack.apis[0].start().catch((err) => process.stderr.write(`api restart: ${err}\n`));
    },
  },
  {
    name: 'worker kill -9 (restarted after 2 s)',
    async inject(stack) {
      await stack.workers[0].kill('SIGKILL');
      await sleep(2_000);
      await stack.workers[0].start();
    },
  },
  {
    name: 'Postgres unreachable 5 s',
    async inject(stack) {
      // The processes reach Postgres through the drill's proxy: every connection reset, new ones refused.
      stack.proxy.cut();
      await sleep(5_000);
      stack.proxy.restore();
    },
  },
  {
    name: 'Redis kill -9, restarted empty after 2 s',
    async inject(stack) {
      await stack.redis.kill();
      await sleep(2_000);
      await stack.redis.start();
    },
  },
  {
    name: 'anvil paused 20 s (SIGSTOP/SIGCONT)',
    async inject() {
      const pid = anvilPid();
      process.kill(pid, 'SIGSTOP');
      try {
        await sleep(20_000);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
    },
  },
  {
    name: "hot wallet's nonce taken from outside",
    async inject(stack) {
      // The nonce agora signs its next transaction with, spent by another tool holding the same key.
      const hot = new Wallet(stack.chain.platform.privateKey, stack.chain.provider);
      for (let attempt = 1; ; attempt++) {
        const { rows } = await stack.db.query(`SELECT next_nonce::int AS n FROM chain_nonces WHERE wallet = $1`, [
          hot.address.toLowerCase(),
        ]);
        const pending = await stack.chain.provider.getTransactionCount(hot.address, 'pending');
        try {
          const tx = await hot.sendTransaction({
            to: hot.address,
            value: 0n,
            nonce: Math.max(rows[0]?.n ?? 0, pending),
          });
          await Promise.race([tx.wait(), sleep(15_000)]);
          return;
        } catch (err) {
          // agora sent with that nonce between the read and the send: read again.
          if (attempt >= 10) throw err;
        }
      }
    },
  },
];

/** The faults DRILL_FAULTS names (comma-separated words each fault's name starts with, e.g. "api,redis"), all by default. */
export function chosenFaults(spec: string | undefined): Fault[] {
  if (!spec) return FAULTS;
  const words = spec.split(',').map((w) => w.trim().toLowerCase());
  const chosen = FAULTS.filter((f) => words.some((w) => f.name.toLowerCase().startsWith(w)));
  if (!chosen.length) throw new Error(`DRILL_FAULTS=${spec} names no fault; faults: ${FAULTS.map((f) => f.name)}`);
  return chosen;
}
