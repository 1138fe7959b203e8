#!/usr/bin/env bash
# Installs everything the service needs and prepares the database; safe to run again.
source "$(dirname "$0")/lib.sh"
ensure_node_modules
ensure_postgres
ensure_redis
log "building api, worker and ops"
npm run -s build
log "applying migrations"
node dist/apps/ops/main.js migrate
