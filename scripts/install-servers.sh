#!/usr/bin/env bash
# Installs the servers that integration tests, end-to-end tests and `npm run stack` start locally:
# FerretDB (MongoDB wire protocol; its data in a private PostgreSQL cluster the testkit starts with
# initdb, or SQLite) and nats-server (JetStream). Both are built from
# source with Go, because no Docker or system packages are assumed. Idempotent: a binary is
# (re)built only when it is missing or its version stamp differs from the pinned version.
#
# Installs into ${GATEWAY_CACHE_DIR:-<repo>/.cache}/bin/.
set -euo pipefail

readonly FERRETDB_VERSION="v1.24.2"
readonly NATS_SERVER_VERSION="v2.10.29"

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache_dir="${GATEWAY_CACHE_DIR:-$repo_root/.cache}"
bin_dir="$cache_dir/bin"

log() { printf '[install-servers] %s\n' "$*"; }
fail() { printf '[install-servers] ERROR: %s\n' "$*" >&2; exit 1; }

if ! command -v go >/dev/null 2>&1; then
  fail "'go' was not found on PATH. Install Go 1.21 or newer (https://go.dev/dl/); it builds FerretDB ${FERRETDB_VERSION} and nats-server ${NATS_SERVER_VERSION}."
fi

# Go 1.21+ fetches the newer toolchain these modules ask for (GOTOOLCHAIN=auto); older Go cannot.
go_version="$(go env GOVERSION)"
go_minor="$(printf '%s' "$go_version" | sed -n 's/^go1\.\([0-9][0-9]*\).*/\1/p')"
if [[ -z "$go_minor" || "$go_minor" -lt 21 ]]; then
  fail "Go 1.21 or newer is required, found '${go_version}'."
fi

mkdir -p "$bin_dir"

# Two test runs starting at once (e.g. two vitest projects) must not build into the same file.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$bin_dir/.install.lock"
  flock 9
fi

work_dir="$(mktemp -d "${TMPDIR:-/tmp}/gateway-install-servers.XXXXXX")"
cleanup() { chmod -R u+w "$work_dir" 2>/dev/null || true; rm -rf "$work_dir"; }
trap cleanup EXIT

is_current() { # name version
  [[ -x "$bin_dir/$1" && -f "$bin_dir/$1.version" && "$(cat "$bin_dir/$1.version")" == "$2" ]]
}

# Moves a freshly built binary into place and stamps it; the rename is atomic so a concurrent
# reader never sees a half-written binary.
install_binary() { # built-path name version
  mv -f "$1" "$bin_dir/$2"
  printf '%s\n' "$3" >"$bin_dir/$2.version"
  log "installed $2 $3 at $bin_dir/$2"
}

install_ferretdb() {
  if is_current ferretdb "$FERRETDB_VERSION"; then
    log "ferretdb $FERRETDB_VERSION already installed at $bin_dir/ferretdb"
    return
  fi
  log "building ferretdb $FERRETDB_VERSION (takes about 2 minutes the first time)"
  # `go install ...@version` is refused for this module by the proxy, so build from the module
  # source instead. The module zip lacks build/version/version.txt, which FerretDB embeds and
  # requires at start, so write it before building.
  local download_json src_dir
  download_json="$(go mod download -json "github.com/FerretDB/FerretDB@${FERRETDB_VERSION}")" ||
    fail "could not download github.com/FerretDB/FerretDB@${FERRETDB_VERSION}: ${download_json:-no output}"
  src_dir="$(printf '%s\n' "$download_json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
  [[ -n "$src_dir" && -d "$src_dir" ]] || fail "go mod download gave no source directory: $download_json"

  cp -r "$src_dir" "$work_dir/ferretdb-src"
  chmod -R u+w "$work_dir/ferretdb-src"
  printf '%s\n' "$FERRETDB_VERSION" >"$work_dir/ferretdb-src/build/version/version.txt"
  (cd "$work_dir/ferretdb-src" && go build -trimpath -buildvcs=false -o "$work_dir/ferretdb" ./cmd/ferretdb) ||
    fail "building ferretdb $FERRETDB_VERSION failed (see the Go output above)"
  install_binary "$work_dir/ferretdb" ferretdb "$FERRETDB_VERSION"
}

install_nats_server() {
  if is_current nats-server "$NATS_SERVER_VERSION"; then
    log "nats-server $NATS_SERVER_VERSION already installed at $bin_dir/nats-server"
    return
  fi
  log "building nats-server $NATS_SERVER_VERSION"
  mkdir -p "$work_dir/nats-bin"
  GOBIN="$work_dir/nats-bin" go install "github.com/nats-io/nats-server/v2@${NATS_SERVER_VERSION}" ||
    fail "go install github.com/nats-io/nats-server/v2@${NATS_SERVER_VERSION} failed (see the Go output above)"
  install_binary "$work_dir/nats-bin/nats-server" nats-server "$NATS_SERVER_VERSION"
}

# PostgreSQL is a system package (Debian: postgresql), not built here: only report whether it is there.
check_postgresql() {
  local dir
  for dir in ${GATEWAY_POSTGRES_BIN_DIR:-} $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV) $(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)"); do
    if [[ -x "$dir/initdb" && -x "$dir/postgres" && -x "$dir/pg_isready" && -x "$dir/psql" ]]; then
      log "PostgreSQL server programs found at $dir"
      return
    fi
  done
  log "WARNING: PostgreSQL (initdb, postgres, pg_isready, psql) not found; FerretDB needs it unless GATEWAY_FERRETDB_BACKEND=sqlite (Debian: apt-get install postgresql)"
}

install_ferretdb
install_nats_server
check_postgresql
log "done: $bin_dir"
