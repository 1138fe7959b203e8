#!/usr/bin/env bash
# The whole test suite: lint, type check, build, the console's component tests, unit, integration
# and e2e (real Postgres, Redis, processes and HTTP on loopback). Installs and starts what is missing first.
source "$(dirname "$0")/lib.sh"
ensure_node_modules
ensure_postgres
ensure_redis
ensure_chromium
mkdir -p .tmp
# Lint (ESLint, the dependency rules, the line count, the prettier check) and the type check run
# beside the build: three single-threaded stages on two cores take about 85 s instead of 145 s.
# Each one's output is printed when it ends; any failure fails the run after all three ended.
log "lint, type check and build, side by side"
side_by_side() {
  local name=$1; shift
  ( set +e; "$@" > ".tmp/$name.log" 2>&1; echo $? > ".tmp/$name.rc" ) &
}
side_by_side lint npm run -s lint
side_by_side typecheck npx tsc --noEmit -p tsconfig.json
side_by_side build npm run -s build
wait
failed=0
for stage in lint typecheck build; do
  rc=$(cat ".tmp/$stage.rc")
  log "$stage: $([ "$rc" = 0 ] && echo ok || echo "FAILED (exit $rc)")"
  if [ "$rc" != 0 ]; then cat ".tmp/$stage.log"; failed=1; fi
done
[ "$failed" = 0 ] || exit 1
log "openapi";     npm run -s openapi:check
# The console's views and forms in jsdom (vitest, about 15 s); its browser tests against the real api are jest's.
log "console component tests"; npm run -s test -w apps/console
log "unit, integration and e2e tests"
set +e
# One test file at a time, in a worker process replaced once it holds more than 1 GB after a file
# (jest.config.js). Two at a time on two cores were measured: timing assertions (a p99 under load, a
# recovery within two sweeps) failed when the machine was busy.
npx jest --ci --json --outputFile=.tmp/jest-results.json "$@"
status=$?
set -e
node -e '
  const r = require("./.tmp/jest-results.json");
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`suites: ${r.numPassedTestSuites} passed, ${r.numFailedTestSuites} failed`);
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ""}`);
  if (r.numTotalTests === 0) { console.log("no tests ran"); process.exit(1); }
' || status=1
exit $status
