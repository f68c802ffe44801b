#!/usr/bin/env bash
# Installs a pinned Helm 3 for the chart checks (deploy/k8s/test-chart.sh). Helm is built from
# source with Go, from the Go module proxy, because prebuilt release binaries cannot be downloaded
# on this project's machines. Idempotent: the binary is (re)built only when it is missing or its
# version stamp differs from the pinned version.
#
# Installs into ${GATEWAY_CACHE_DIR:-<repo>/.cache}/bin/helm and prints nothing else on stdout
# than log lines. A cold build (empty Go module and build caches) takes about 5 minutes on 2 cores;
# see deploy/k8s/README.md for measured timings.
set -euo pipefail

readonly HELM_MODULE="helm.sh/helm/v3"
readonly HELM_VERSION="v3.22.0"

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache_dir="${GATEWAY_CACHE_DIR:-$repo_root/.cache}"
bin_dir="$cache_dir/bin"

log() { printf '[install-helm] %s\n' "$*"; }
fail() { printf '[install-helm] ERROR: %s\n' "$*" >&2; exit 1; }

is_current() {
  [[ -x "$bin_dir/helm" && -f "$bin_dir/helm.version" && "$(cat "$bin_dir/helm.version")" == "$HELM_VERSION" ]]
}

# Fast path before any Go check, so machines that already have the binary need no Go at all.
if is_current; then
  log "helm $HELM_VERSION already installed at $bin_dir/helm"
  exit 0
fi

command -v go >/dev/null 2>&1 ||
  fail "'go' was not found on PATH. Install Go 1.21 or newer (https://go.dev/dl/); it builds helm ${HELM_VERSION}."

mkdir -p "$bin_dir"

# Two runs at once (CI steps, two shells) must not build into the same file.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$bin_dir/.install-helm.lock"
  flock 9
  if is_current; then
    log "helm $HELM_VERSION was installed by a concurrent run at $bin_dir/helm"
    exit 0
  fi
fi

work_dir="$(mktemp -d "${TMPDIR:-/tmp}/gateway-install-helm.XXXXXX")"
cleanup() { chmod -R u+w "$work_dir" 2>/dev/null || true; rm -rf "$work_dir"; }
trap cleanup EXIT

started=$SECONDS
log "building helm $HELM_VERSION from $HELM_MODULE (about 5 minutes on 2 cores with cold Go caches)"

# The module source gives the Go version it needs and the Kubernetes libraries it was built
# against; both feed the build below.
download_json="$(go mod download -json "${HELM_MODULE}@${HELM_VERSION}")" ||
  fail "could not download ${HELM_MODULE}@${HELM_VERSION}: ${download_json:-no output}"
src_dir="$(printf '%s\n' "$download_json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
[[ -n "$src_dir" && -f "$src_dir/go.mod" ]] || fail "go mod download gave no source directory: $download_json"

# A Go older than the module's `go` line refuses to build under GOTOOLCHAIN=local; let it fetch
# the required toolchain (itself a module on the Go module proxy) instead of failing.
required_go="$(sed -n 's/^go \([0-9][0-9.]*\)$/\1/p' "$src_dir/go.mod")"
local_go="$(go env GOVERSION | sed 's/^go//')"
if [[ -n "$required_go" ]] && [[ "$(printf '%s\n%s\n' "$required_go" "$local_go" | sort -V | head -n1)" != "$required_go" ]]; then
  log "Go $local_go is older than the go $required_go that helm $HELM_VERSION needs: letting Go fetch that toolchain"
  export GOTOOLCHAIN="go${required_go}+auto"
fi

# Helm's Makefile stamps these at build time. Without them `helm version` says "v3.22" and
# `helm template`/`helm lint` assume Kubernetes 1.20 (.Capabilities.KubeVersion), which would
# fail the chart's kubeVersion constraint.
k8s_minor="$(sed -n 's/^[[:space:]]*k8s\.io\/client-go v0\.\([0-9][0-9]*\)\..*$/\1/p' "$src_dir/go.mod" | head -n1)"
[[ -n "$k8s_minor" ]] || fail "could not read the k8s.io/client-go version from $src_dir/go.mod"
ldflags="-s -w"
ldflags+=" -X helm.sh/helm/v3/internal/version.version=${HELM_VERSION}"
ldflags+=" -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
ldflags+=" -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=${k8s_minor}"
ldflags+=" -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=${k8s_minor}"

mkdir -p "$work_dir/bin"
# Static binary as in Helm's own release build; no C toolchain needed.
export CGO_ENABLED=0
if ! GOBIN="$work_dir/bin" GOFLAGS=-buildvcs=false go install -trimpath -ldflags "$ldflags" "${HELM_MODULE}/cmd/helm@${HELM_VERSION}"; then
  # `go install pkg@version` refuses modules whose go.mod has replace directives (or when the
  # proxy's version list misbehaves); building inside a copy of the module source does not.
  log "go install was refused; building from a copy of the module source instead"
  cp -r "$src_dir" "$work_dir/helm-src"
  chmod -R u+w "$work_dir/helm-src"
  (cd "$work_dir/helm-src" && go build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$work_dir/bin/helm" ./cmd/helm) ||
    fail "building helm $HELM_VERSION failed (see the Go output above)"
fi

built_version="$("$work_dir/bin/helm" version --template '{{.Version}}')" ||
  fail "the built helm binary does not run"
[[ "$built_version" == "$HELM_VERSION" ]] || fail "the built helm reports '$built_version', expected '$HELM_VERSION'"

# The rename is atomic, so a concurrent reader never sees a half-written binary.
mv -f "$work_dir/bin/helm" "$bin_dir/helm"
printf '%s\n' "$HELM_VERSION" >"$bin_dir/helm.version"
log "installed helm $HELM_VERSION at $bin_dir/helm in $((SECONDS - started))s"
