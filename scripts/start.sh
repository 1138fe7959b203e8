#!/usr/bin/env bash
# Installs what is missing, then runs the api and the worker in the foreground (Ctrl-C stops all).
#   bash scripts/start.sh            local settlement (no chain)
#   bash scripts/start.sh --chain    also a local EVM chain (anvil, chain id 84532) with TestUSDC and
#                                    five funded demo wallets; api and worker settle on it (evm mode)
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
export PORT="${PORT:-3000}"
if [ "${NODE_ENV:-development}" != "production" ]; then
  # Local development: agents (the example agent, npm run demo) run on http://127.0.0.1.
  export OUTBOUND_ALLOW_HTTP="${OUTBOUND_ALLOW_HTTP:-true}" OUTBOUND_ALLOW_PRIVATE="${OUTBOUND_ALLOW_PRIVATE:-true}"
fi
pids=()
cleanup() { kill -TERM "${pids[@]}" 2>/dev/null || true; wait "${pids[@]}" 2>/dev/null || true; }
trap cleanup INT TERM EXIT

if [ "${1:-}" = "--chain" ]; then
  rm -f .tmp/chain.env
  log "starting the local chain on :${CHAIN_PORT:-8545}"
  node scripts/local-chain.js up "${CHAIN_PORT:-8545}" & pids+=($!)
  for _ in $(seq 1 100); do [ -f .tmp/chain.env ] && break; sleep 0.2; done
  [ -f .tmp/chain.env ] || { log "the local chain did not start"; exit 1; }
  set -a; source .tmp/chain.env; set +a
fi

# The worker's Prometheus metrics (GET /metrics); the api's are at :$PORT/metrics with a bearer token.
export METRICS_PORT="${METRICS_PORT:-9464}"
log "starting api on :$PORT and the worker (settlement: ${SETTLEMENT_MODE:-local}; worker metrics on :$METRICS_PORT)"
if [ "${NODE_ENV:-development}" != "production" ] && [ -t 1 ] && [ -x node_modules/.bin/pino-pretty ]; then
  # Development at a terminal: readable logs. Otherwise (production, or piped) one JSON object a line.
  pretty() { node_modules/.bin/pino-pretty --colorize --translateTime SYS:HH:MM:ss.l --ignore pid,hostname; }
  node dist/apps/api/main.js > >(pretty) 2>&1 & pids+=($!)
  node dist/apps/worker/main.js > >(pretty) 2>&1 & pids+=($!)
else
  node dist/apps/api/main.js & pids+=($!)
  node dist/apps/worker/main.js & pids+=($!)
fi
# Once the api answers, say where to go next.
(
  for _ in $(seq 1 300); do
    if node -e "fetch('http://127.0.0.1:$PORT/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"; then
      log "agora is up. API docs (OpenAPI, try it out): http://localhost:$PORT/api/docs"
      log "next, in another terminal: npm run demo   (registers an example agent, pays and executes it, then a chain)"
      log "the console (explorer, agents): http://localhost:$PORT/"
      exit 0
    fi
    sleep 0.5
  done
) &
wait -n "${pids[@]}"
