# Shared helpers for the set-up, start and test scripts. Sourced, not run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

log() { printf '\033[1m[agora]\033[0m %s %s\n' "$(date +%T)" "$*"; }

port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

docker_engine() { command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else "$@"; fi; }

apt_install() {
  log "installing $* with apt-get"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

wait_port() {
  local host=$1 port=$2 what=$3
  for _ in $(seq 1 60); do port_open "$host" "$port" && return 0; sleep 0.5; done
  log "$what did not come up on $host:$port"; return 1
}

# Postgres on 127.0.0.1:5432: running already, or a local cluster started, or docker compose,
# or installed from Debian's packages and started.
ensure_postgres() {
  if port_open 127.0.0.1 5432; then return 0; fi
  if ls /etc/postgresql/*/main >/dev/null 2>&1 && command -v pg_ctlcluster >/dev/null 2>&1; then
    log "starting the local PostgreSQL cluster"
    as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -1)" main start || true
  elif docker_engine; then
    log "starting PostgreSQL with docker compose"
    docker compose up -d postgres
  else
    apt_install postgresql postgresql-contrib
    local v; v="$(ls /etc/postgresql | sort -V | tail -1)"
    # Local development trusts loopback connections, as the default DATABASE_URL expects.
    sed -i -E 's/^(host\s+all\s+all\s+(127\.0\.0\.1\/32|::1\/128)\s+)\S+/\1trust/' "/etc/postgresql/$v/main/pg_hba.conf"
    as_root pg_ctlcluster --skip-systemctl-redirect "$v" main start
  fi
  wait_port 127.0.0.1 5432 PostgreSQL
}

ensure_redis() {
  if port_open 127.0.0.1 6379; then return 0; fi
  if command -v redis-server >/dev/null 2>&1; then
    log "starting redis-server"
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  elif docker_engine; then
    log "starting Redis with docker compose"
    docker compose up -d redis
  else
    apt_install redis-server
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  fi
  wait_port 127.0.0.1 6379 Redis
}

# node_modules from the lock file, reinstalled from scratch when the lock file changed.
# Not `npm ci`: npm 11.19 writes lock files without other platforms' optional packages and
# then its own `npm ci` refuses them; `npm install --no-save` installs the locked versions
# and leaves package-lock.json untouched.
# Debian's Chromium for the browser tests (Playwright drives it: test/support/browser.ts).
ensure_chromium() {
  if [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then return 0; fi
  apt_install chromium
}

ensure_node_modules() {
  local stamp=node_modules/.agora-lock-stamp
  if [ -d node_modules ] && [ -f "$stamp" ] && cmp -s package-lock.json "$stamp"; then return 0; fi
  log "installing dependencies from package-lock.json"
  rm -rf node_modules
  # --prefer-offline: packages already in npm's cache are not asked of the registry again.
  npm install --no-save --no-audit --no-fund --prefer-offline
  cp package-lock.json "$stamp"
}
