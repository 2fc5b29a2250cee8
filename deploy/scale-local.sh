#!/usr/bin/env bash
# The topology of docker-compose.scale.yml without containers, for machines that have no Docker: three app
# instances (scripts/start.mjs, each with its workers) behind nginx on one PostgreSQL and one Redis. The nginx
# configuration is deploy/nginx-scale.conf itself, with the one part Docker's DNS provides (the `app` replicas)
# replaced by the three local ports; every proxy setting is the compose file's.
#
#   bash deploy/scale-local.sh            # start, print the URLs, wait; Ctrl-C stops everything
#   bash deploy/scale-local.sh --chaos    # start, run the chaos scenario against the balancer, stop
#
# Needs: nginx (`apt-get install nginx`), PostgreSQL and Redis reachable (DATABASE_ADMIN_URL, REDIS_URL below),
# and a build (`npm run build`; made here when .next/BUILD_ID is missing). Everything it creates is its own:
# the database holdfast_scale (dropped and created again), Redis logical database 7 (flushed), a temp folder.
# Extra arguments after --chaos go to the chaos scenario (e.g. --candidates 300 --duration 120).
set -euo pipefail
cd "$(dirname "$0")/.."

LB_PORT="${LB_PORT:-3300}"
FIRST_PORT="${FIRST_PORT:-3301}"
INSTANCES=3
DATABASE_ADMIN_URL="${DATABASE_ADMIN_URL:-postgresql://postgres@127.0.0.1:5432/postgres}"
DATABASE_NAME="${DATABASE_NAME:-holdfast_scale}"
DATABASE_URL="${DATABASE_ADMIN_URL%/*}/$DATABASE_NAME"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/7}"
APP_SECRET="${APP_SECRET:-$(openssl rand -hex 32)}"
ADMIN_API_TOKEN="${ADMIN_API_TOKEN:-$(openssl rand -hex 24)}"
export DATABASE_URL REDIS_URL APP_SECRET ADMIN_API_TOKEN

run_chaos=""
if [ "${1:-}" = "--chaos" ]; then
  run_chaos=1
  shift
fi

say() { printf 'scale-local: %s\n' "$*"; }

command -v nginx >/dev/null || {
  say "nginx is missing: apt-get install nginx"
  exit 2
}
if [ -z "${PRISMA_SCHEMA_ENGINE_BINARY:-}" ] && [ -f ../shared/tools/prisma-engine/schema-engine.mjs ]; then
  PRISMA_SCHEMA_ENGINE_BINARY="$(realpath ../shared/tools/prisma-engine/schema-engine.mjs)"
  export PRISMA_SCHEMA_ENGINE_BINARY
fi
[ -f .next/BUILD_ID ] || npm run build

work="$(mktemp -d /tmp/holdfast-scale-XXXXXX)"
# nginx's workers run as an unprivileged user and keep request bodies under this folder.
chmod 755 "$work"
killer=""
# Each instance's process group (its primary's pid) is in $work/app-N.pid: a restarted one too.
instance_pid() { cat "$work/app-$1.pid"; }
stop() {
  [ -n "$killer" ] && kill "$killer" 2>/dev/null || true
  local file
  for file in "$work"/app-*.pid; do [ -f "$file" ] && kill -TERM -- "-$(cat "$file")" 2>/dev/null || true; done
  [ -f "$work/nginx.pid" ] && kill -QUIT "$(cat "$work/nginx.pid")" 2>/dev/null || true
  for _ in $(seq 1 35); do
    local alive=""
    for file in "$work"/app-*.pid; do [ -f "$file" ] && kill -0 -- "-$(cat "$file")" 2>/dev/null && alive=1; done
    [ -z "$alive" ] && break
    sleep 1
  done
  say "stopped; logs were in $work"
}
trap stop EXIT

say "database $DATABASE_NAME (new), Redis $REDIS_URL (flushed)"
psql "$DATABASE_ADMIN_URL" -qtA -c "DROP DATABASE IF EXISTS $DATABASE_NAME WITH (FORCE)" -c "CREATE DATABASE $DATABASE_NAME" >/dev/null
npm run --silent db:migrate >"$work/migrate.log" 2>&1 || {
  cat "$work/migrate.log"
  exit 1
}
redis-cli -u "$REDIS_URL" FLUSHDB >/dev/null

# Each instance in its own process group (setsid), so it can be killed whole: primary and workers.
start_instance() {
  local i="$1" port=$((FIRST_PORT + $1))
  HOLDFAST_INSTANCES="$INSTANCES" APP_URL="http://127.0.0.1:$LB_PORT" PORT="$port" \
    setsid node scripts/start.mjs -p "$port" >>"$work/app-$i.log" 2>&1 &
  echo "$!" >"$work/app-$i.pid"
}
upstream=""
for i in $(seq 0 $((INSTANCES - 1))); do
  upstream+="    server 127.0.0.1:$((FIRST_PORT + i));\n"
  start_instance "$i"
done

# deploy/nginx-scale.conf with Docker's resolver and replicas swapped for the local instances, and the
# paths a non-default prefix needs.
sed -e '/^\s*resolver /d' \
  -e "s|^\(\s*\)server app:3000 resolve;|$upstream|" \
  -e "s|listen 80 backlog=4096;|listen 127.0.0.1:$LB_PORT backlog=4096;|" \
  -e "s|^worker_processes auto;|worker_processes auto;\npid $work/nginx.pid;\nerror_log $work/nginx-error.log;|" \
  -e "s|^http {|http {\n  access_log off;\n  client_body_temp_path $work/body;\n  proxy_temp_path $work/proxy;|" \
  deploy/nginx-scale.conf >"$work/nginx.conf"
grep -q "server 127.0.0.1:$FIRST_PORT;" "$work/nginx.conf" || {
  say "deploy/nginx-scale.conf no longer has the line this script replaces (server app:3000 resolve;)"
  exit 1
}
nginx -t -q -p "$work" -c "$work/nginx.conf"
nginx -p "$work" -c "$work/nginx.conf"

for i in $(seq 0 $((INSTANCES - 1))); do
  port=$((FIRST_PORT + i))
  for _ in $(seq 1 120); do
    curl -fsS "http://127.0.0.1:$port/api/health" >/dev/null 2>&1 && break
    kill -0 "$(instance_pid "$i")" 2>/dev/null || {
      cat "$work/app-$i.log"
      exit 1
    }
    sleep 1
  done
  curl -fsS "http://127.0.0.1:$port/api/health" >/dev/null || {
    say "instance $i (port $port) did not answer /api/health in 120 s; its log: $work/app-$i.log"
    exit 1
  }
done
say "$INSTANCES instances on ports $FIRST_PORT–$((FIRST_PORT + INSTANCES - 1)), nginx on http://127.0.0.1:$LB_PORT"

# Instance 1 killed (SIGKILL, primary and workers) 40 s into the chaos run and instance 2 at 75 s, each started
# again 3 s later: the balancer must route around a dead instance (proxy_next_upstream error) while the harness's
# network faults run.
kill_and_restart() {
  local i="$1"
  say "killing instance $i (SIGKILL to its process group $(instance_pid "$i"))"
  kill -KILL -- "-$(instance_pid "$i")" 2>/dev/null || true
  sleep 3
  start_instance "$i"
  say "instance $i started again (pid $(instance_pid "$i"))"
}

if [ -n "$run_chaos" ]; then
  (
    sleep "${FIRST_KILL_S:-40}"
    kill_and_restart 1
    sleep "${SECOND_KILL_S:-32}"
    kill_and_restart 2
  ) &
  killer="$!"
  npx tsx bench/run.ts chaos --target "http://127.0.0.1:$LB_PORT" --database-url "$DATABASE_URL" \
    --admin-token "$ADMIN_API_TOKEN" "$@"
else
  say "admin API token: $ADMIN_API_TOKEN (Ctrl-C stops everything)"
  while kill -0 "$(instance_pid 0)" 2>/dev/null; do sleep 2; done
fi
