/**
 * Issue 53: the alert rules of docs/ops/alerts.yml through a 10-minute normal-load run (`npm run
 * soak:alerts`; ALERT_SOAK_S to change the length). Real api and worker processes (built: `npm run
 * build` first), the load of test/support/alert-load.ts, both /metrics scraped every 5 s, every rule
 * evaluated at every scrape. Prints which rules were active (their expression answered) and which
 * fired (active for their `for`), and the sweeper's recoveries; exits 1 if any rule fired or anything
 * was counted as recovered.
 */
import 'reflect-metadata';
import { AlertLoad, alertVerdicts, recoveredByJob } from '../support/alert-load';
import globalSetup from '../setup/global-setup';
import globalTeardown from '../setup/global-teardown';

const SECONDS = Number(process.env.ALERT_SOAK_S ?? 600);

async function main(): Promise<void> {
  await globalSetup(); // the migrated template database the load's database is cloned from
  const load = await new AlertLoad().start({ MAINTENANCE_INTERVAL_MS: process.env.MAINTENANCE_INTERVAL_MS ?? '5000' });
  try {
    await load.scrape();
    // Normal load: the measure was about 1,000 paid calls in 75 s; ALERT_SOAK_RATE calls a second.
    await load.run(SECONDS * 1000, 6, Number(process.env.ALERT_SOAK_RATE ?? 15));
    await load.scrape();
    const verdicts = alertVerdicts(load.store);
    const recovered = recoveredByJob(load.store);
    console.log(
      JSON.stringify(
        {
          seconds: SECONDS,
          scrapes: load.store.scrapes.length,
          calls: load.counts,
          failures: load.failures,
          peakQueues: load.peakQueues(),
          recovered,
          rules: verdicts.map((v) => ({ alert: v.alert, activeScrapes: v.active.length, firing: v.firing })),
        },
        null,
        2,
      ),
    );
    const bad = verdicts.filter((v) => v.active.length > 0).length + Object.keys(recovered).length;
    process.exitCode = bad > 0 ? 1 : 0;
  } finally {
    await load.stop();
    await globalTeardown();
  }
}

void main().then(
  () => process.exit(),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
