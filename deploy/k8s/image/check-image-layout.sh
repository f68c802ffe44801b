#!/usr/bin/env bash
# Rebuilds the image's /app the way deploy/k8s/Dockerfile does, without Docker (no engine can
# build here), and runs the gateway from it under the image's run-time rules:
#   - the file set Dockerfile.dockerignore lets in (no tests, no host node_modules),
#   - `npm ci --ignore-scripts` from the lockfile, then prune-dev-dependencies.mjs --keep tsx,
#   - NODE_ENV=production, `node --import tsx <entry>`, as an unprivileged user that cannot
#     write to the code (the read-only root filesystem), with only $TMPDIR writable,
#   - each process answers /healthz and /readyz and exits 0 within the grace period on SIGTERM.
# It catches a run-time import of a pruned devDependency, a missing source file, a write outside
# /tmp, and a process that does not drain on SIGTERM.
#
# Needs the npm registry (or a warm npm cache), a MongoDB wire server and NATS:
#   MONGODB_URL (default mongodb://127.0.0.1:27017), NATS_URL (default nats://127.0.0.1:4222).
# Usage: deploy/k8s/image/check-image-layout.sh   (about 1-2 minutes, mostly npm ci)
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
mongodb_url="${MONGODB_URL:-mongodb://127.0.0.1:27017}"
nats_url="${NATS_URL:-nats://127.0.0.1:4222}"
grace_seconds=30

log() { printf '[check-image-layout] %s\n' "$*"; }
die() { printf '[check-image-layout] FAIL: %s\n' "$*" >&2; exit 1; }

work_dir="$(mktemp -d "${TMPDIR:-/tmp}/gateway-image-layout.XXXXXX")"
chmod 755 "$work_dir"
app="$work_dir/app"
run_tmp="$work_dir/tmp"
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  rm -rf "$work_dir"
}
trap cleanup EXIT

# The image's user: not root and not the owner of the code. Root (CI) can switch to nobody;
# anyone else runs as themselves and only gets a notice.
run_as=()
if [[ "$(id -u)" -eq 0 ]] && command -v setpriv >/dev/null 2>&1; then
  run_as=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
else
  log "NOTICE: not root: processes run as $(id -un), so writes outside TMPDIR are not caught"
fi

log "copying the build context as Dockerfile.dockerignore filters it"
mkdir -p "$app" "$run_tmp"
(
  cd "$repo_root"
  tar -c \
    --exclude='node_modules' --exclude='test' --exclude='*.test.ts' --exclude='*.md' \
    package.json package-lock.json tsconfig.base.json tsconfig.json packages services
) | tar -x -C "$app"

log "npm ci --ignore-scripts (as the Dockerfile's deps stage)"
started=$SECONDS
(cd "$app" && npm ci --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error) ||
  die "npm ci failed"
log "npm ci took $((SECONDS - started))s"
node "$repo_root/deploy/k8s/image/prune-dev-dependencies.mjs" "$app" --keep tsx
for dev_tool in vitest typescript playwright-core @bufbuild/buf; do
  [[ ! -e "$app/node_modules/$dev_tool" ]] || die "devDependency $dev_tool is still installed after pruning"
done
(cd "$app" && node --import tsx --eval "process.exit(0)") || die "tsx does not load from the pruned tree"
# Code owned by root, readable by all, writable by nobody else: what the read-only root fs gives.
chmod -R a+rX,go-w "$app"
chmod 1777 "$run_tmp"

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

wait_ready() { # name port pid
  local deadline=$((SECONDS + 90))
  while ((SECONDS < deadline)); do
    kill -0 "$3" 2>/dev/null || { sed 's/^/    /' "$work_dir/$1.log" | tail -n 30; die "$1 exited before it was ready"; }
    if curl -fsS "http://127.0.0.1:$2/readyz" >/dev/null 2>&1; then
      curl -fsS "http://127.0.0.1:$2/healthz" >/dev/null || die "$1: /readyz answers but /healthz does not"
      log "$1 ready on :$2"
      return
    fi
    sleep 0.5
  done
  sed 's/^/    /' "$work_dir/$1.log" | tail -n 30
  die "$1 was not ready within 90s"
}

declare -A ports
start() { # name entry [VAR=value...]
  local name="$1" entry="$2"; shift 2
  [[ -f "$app/$entry" ]] || die "$entry is missing from the image's file set"
  ports[$name]="$(free_port)"
  (
    cd "$app"
    exec env -i PATH="$PATH" NODE_ENV=production HOME=/nonexistent TMPDIR="$run_tmp" \
      HOST=127.0.0.1 PORT="${ports[$name]}" LOG_LEVEL=warn "$@" \
      "${run_as[@]}" node --import tsx "$entry"
  ) >"$work_dir/$name.log" 2>&1 &
  pids+=("$!")
  eval "pid_$(printf '%s' "$name" | tr '-' '_')=$!"
  wait_ready "$name" "${ports[$name]}" "$!"
}

stop() { # name pid
  local name="$1" pid="$2" code=0
  kill -TERM "$pid"
  local deadline=$((SECONDS + grace_seconds))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  kill -0 "$pid" 2>/dev/null && die "$name did not exit within ${grace_seconds}s of SIGTERM"
  wait "$pid" || code=$?
  [[ "$code" -eq 0 ]] || { sed 's/^/    /' "$work_dir/$name.log" | tail -n 20; die "$name exited with $code after SIGTERM"; }
  log "$name drained and exited 0 on SIGTERM"
}

db_prefix="image_layout_$RANDOM$RANDOM"
start accounts services/accounts/src/main.ts MONGODB_URL="$mongodb_url" MONGODB_DATABASE="${db_prefix}_accounts" GATEWAY_DEMO=1
start sessions services/sessions/src/main.ts MONGODB_URL="$mongodb_url" MONGODB_DATABASE="${db_prefix}_sessions" \
  NATS_URL="$nats_url" ACCOUNTS_URL="http://127.0.0.1:${ports[accounts]}"
start edge services/edge/src/main.ts ACCOUNTS_URL="http://127.0.0.1:${ports[accounts]}" \
  SESSIONS_URL="http://127.0.0.1:${ports[sessions]}" NATS_URL="$nats_url"
start epg-simulator apps/epg-simulator/src/simulator-main.ts
# refunds and webhooks: checked like the others; an image built without their entry points is
# still checked for the rest.
for service in refunds webhooks; do
  if [[ -f "$app/services/$service/src/main.ts" ]]; then
    start "$service" "services/$service/src/main.ts" MONGODB_URL="$mongodb_url" MONGODB_DATABASE="${db_prefix}_$service" \
      NATS_URL="$nats_url" ACCOUNTS_URL="http://127.0.0.1:${ports[accounts]}" SESSIONS_URL="http://127.0.0.1:${ports[sessions]}"
  else
    log "NOTICE: services/$service/src/main.ts does not exist yet: $service not checked"
  fi
done

curl -fsS "http://127.0.0.1:${ports[edge]}/metrics" | grep -q '^# HELP' || die "edge /metrics does not answer in Prometheus format"

for service in webhooks refunds; do
  var="pid_$service"
  [[ -n "${!var:-}" ]] && stop "$service" "${!var}"
done
stop epg-simulator "$pid_epg_simulator"
stop edge "$pid_edge"
stop sessions "$pid_sessions"
stop accounts "$pid_accounts"

# Drop the databases this check created.
(cd "$repo_root" && MONGODB_URL="$mongodb_url" PREFIX="$db_prefix" node --input-type=module -e '
  import { MongoClient } from "mongodb";
  const client = new MongoClient(process.env.MONGODB_URL);
  await client.connect();
  const { databases } = await client.db("admin").admin().listDatabases();
  for (const { name } of databases) if (name.startsWith(process.env.PREFIX)) await client.db(name).dropDatabase();
  await client.close();
') || log "NOTICE: could not drop the ${db_prefix}_* databases"
log "ok: the image layout runs every service"
