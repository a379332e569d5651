#!/usr/bin/env bash
# Agent variants played on many seeds at once on a lent multi-core machine (the `device` of the
# development guide), for tuning runs that take an hour on the 2-core development machine.
#
#   tools/device_eval.sh prepare NAME=AGENTS_DIR...   # here: fills eval-dev/ (git-ignored)
#   tools/device_eval.sh run                          # there, with eval-dev carried and $OUT set
#
# `prepare` copies the release `colony` and `colonyd` (build them first), the colony package and
# its pure-Python dependencies from .venv-py (no virtualenv on the other machine: PYTHONPATH) and
# each agents folder as eval-dev/variants/NAME. `run` plays every variant on the chunks of seeds
# in $CHUNKS (default "1..80 81..160"), two chunks at once at --parallel $PAR (default 8), of the
# scenario $SC (default survive-60-hard) with the agent file $AG (default scripted.py, persistent
# mode), and copies each chunk's results.json and log under $OUT/VARIANT-FIRST-LAST/. It stops
# starting chunks $BUDGET seconds (default 540) after it starts, so what finished comes back.
# Measured: 320 survive-60-hard episodes in 301 s on 16 cores (about 64 min on 2).
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
case "${1:-}" in
prepare)
  shift
  site=$(echo .venv-py/lib/python3*/site-packages)
  rm -rf eval-dev && mkdir -p eval-dev/bin eval-dev/pylib eval-dev/variants
  cp target/release/colony target/release/colonyd eval-dev/bin/
  strip eval-dev/bin/* 2>/dev/null || true
  for p in anyio certifi colony h11 httpcore httpx idna sniffio websockets typing_extensions.py; do
    if [ -e "$site/$p" ]; then cp -r "$site/$p" eval-dev/pylib/; fi
  done
  for v in "$@"; do
    cp -r "${v#*=}" "eval-dev/variants/${v%%=*}"
  done
  rm -rf eval-dev/variants/*/__pycache__ eval-dev/variants/*/checkpoints
  du -sh eval-dev
  ;;
run)
  PY=$(command -v python3)
  echo "python: $($PY --version) cores: $(nproc)"
  export PYTHONPATH=$ROOT/eval-dev/pylib
  SC=${SC:-survive-60-hard}
  AG=${AG:-scripted.py}
  BUDGET=${BUDGET:-540}
  START=$(date +%s)
  job() {
    local v=$1 seeds=$2 tag left
    tag=$v-${seeds/../-}
    left=$((START + BUDGET - $(date +%s)))
    [ "$left" -gt 20 ] || return 0
    timeout "$left" eval-dev/bin/colony eval --colonyd "$ROOT/eval-dev/bin/colonyd" \
      --scenario "$SC" --seeds "$seeds" --parallel "${PAR:-8}" --out "/tmp/ev/$tag" \
      --agent-mode persistent --quiet \
      --agent "$PY $ROOT/eval-dev/variants/$v/$AG --persistent" >"$OUT/$tag.log" 2>&1
    mkdir -p "$OUT/$tag"
    cp "/tmp/ev/$tag/results.json" "$OUT/$tag/" 2>/dev/null
    echo "$tag done at $(($(date +%s) - START)) s"
  }
  jobs=()
  for c in ${CHUNKS:-1..80 81..160}; do
    for v in $(ls eval-dev/variants); do jobs+=("$v $c"); done
  done
  i=0
  while [ "$i" -lt "${#jobs[@]}" ]; do
    # shellcheck disable=SC2086
    job ${jobs[$i]} &
    if [ $((i + 1)) -lt "${#jobs[@]}" ]; then
      # shellcheck disable=SC2086
      job ${jobs[$((i + 1))]} &
    fi
    wait
    i=$((i + 2))
  done
  ;;
*)
  echo "usage: tools/device_eval.sh prepare NAME=AGENTS_DIR... | run" >&2
  exit 2
  ;;
esac
