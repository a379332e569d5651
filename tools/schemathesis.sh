#!/usr/bin/env bash
# Checks the service against its own OpenAPI document with schemathesis (pinned in
# tools/requirements-ci.txt, installed into .venv-ci on first use). Two runs against a fresh
# colonyd each (debug build, seed 7, 64x64 map, gate open):
#   1. strict: strictHttpStatus on and every check, positive_data_acceptance included: a request
#      the document calls valid must be taken (2xx), or refused only by the world it meets (404
#      an id that does not exist, 409, 422 an occupied spot or a locked building:
#      tools/schemathesis.toml), never as malformed (400). The few kinds of validity a JSON
#      Schema cannot state (corners in order, areas on the map, x with y) are dropped by
#      tools/schemathesis_hooks.py, matched by the service's own error text.
#   2. the default (domain errors answer 200 as the contract says): every check but
#      positive_data_acceptance, negative_data_rejection and unsupported_method (they expect the
#      4xx/405 statuses only strict mode gives).
# Routes that replace the game, change the service or take long are left out: game/new,
# game/load, game/advance, ready, benchmark, settings (they have their own end-to-end tests).
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
COLONYD=${COLONYD:-target/debug/colonyd}
test -x "$COLONYD" || cargo build -p colony-server --bin colonyd
if [ ! -x .venv-ci/bin/schemathesis ]; then
  python3 -m venv .venv-ci
  .venv-ci/bin/pip install -q --disable-pip-version-check -r tools/requirements-ci.txt
fi
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
run() {
  local strict=$1 excluded=$2 dir port pid status=0
  dir=$(mktemp -d)
  port=$(free_port)
  printf '{"httpPort":%s,"wsEnabled":false,"strictHttpStatus":%s}' "$port" "$strict" >"$dir/settings.json"
  "$COLONYD" --data-dir "$dir" --seed 7 --map 64 --ready >"$dir/colonyd.log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/api/ping" >/dev/null && break; sleep 0.1; done
  echo "schemathesis: strictHttpStatus=$strict"
  SCHEMATHESIS_HOOKS=tools/schemathesis_hooks.py \
    .venv-ci/bin/schemathesis --config-file tools/schemathesis.toml run \
    "http://127.0.0.1:$port/api/openapi.json" \
    --checks all ${excluded:+--exclude-checks "$excluded"} --max-examples 20 --workers 1 --seed 7 \
    --exclude-path /api/game/new --exclude-path /api/game/load --exclude-path /api/game/advance \
    --exclude-path /api/ready --exclude-path /api/benchmark --exclude-path /api/settings \
    --no-color || status=$?
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
  return "$status"
}
run true ""
run false positive_data_acceptance,negative_data_rejection,unsupported_method
