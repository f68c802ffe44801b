#!/usr/bin/env bash
# Installs the Python tools the tests run (scripts/python-tools.txt, pinned) into a virtual
# environment: openapi-spec-validator checks docs/api/openapi.json as OpenAPI 3.1, Schemathesis
# fuzzes the running gateway against it. Idempotent:
# the venv is rebuilt only when the requirements changed.
#
# Installs into ${GATEWAY_PYTHON_TOOLS:-${GATEWAY_CACHE_DIR:-<repo>/.cache}/python-tools}.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${GATEWAY_PYTHON_TOOLS:-${GATEWAY_CACHE_DIR:-$repo_root/.cache}/python-tools}"
requirements="$repo_root/scripts/python-tools.txt"
stamp="$venv/.requirements"

log() { printf '[install-python-tools] %s\n' "$*"; }
command -v python3 >/dev/null 2>&1 || { echo "[install-python-tools] ERROR: python3 is required" >&2; exit 1; }

if [[ -f "$stamp" ]] && cmp -s "$stamp" "$requirements"; then
  log "up to date in $venv"
  exit 0
fi
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
cp "$requirements" "$stamp"
log "installed $(grep -v "^#" "$requirements" | tr "\n" " ")into $venv"
