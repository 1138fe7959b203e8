#!/usr/bin/env bash
# Installs what is missing, then runs the api and the worker in the foreground (Ctrl-C stops both).
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
export PORT="${PORT:-3000}"
log "starting api on :$PORT and the worker"
node dist/apps/api/main.js & api=$!
node dist/apps/worker/main.js & worker=$!
trap 'kill -TERM $api $worker 2>/dev/null; wait $api $worker 2>/dev/null' INT TERM
wait -n $api $worker
status=$?
kill -TERM $api $worker 2>/dev/null || true
wait $api $worker 2>/dev/null || true
exit $status
