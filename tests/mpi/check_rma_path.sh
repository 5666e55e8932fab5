#!/usr/bin/env bash
# Which path one-sided operations take: runs rma_basic (contiguous puts and gets in every sync
# mode) under a preload library that counts UCX's RMA calls, and checks that with
# WEFT_RMA_PATH=transport every rank made puts, gets and flushes through UCX, and with
# WEFT_RMA_PATH=messages and auto (all on one node) none.
# Usage: check_rma_path.sh WEFTRUN RMA_BASIC COUNTER_LIBRARY
set -u
weftrun=$1 prog=$2 counter=$3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail() { echo "FAIL: $*"; cat "$out"; exit 1; }

run() {  # PATH_SETTING
  WEFT_RMA_PATH=$1 "$weftrun" -n 3 --timeout 60 -x LD_PRELOAD="$counter" "$prog" >"$out" 2>&1 ||
    fail "rma_basic failed with WEFT_RMA_PATH=$1"
  [ "$(grep -c '^ucx_rma_counter:' "$out")" -eq 3 ] || fail "expected 3 counter lines ($1)"
}

run transport
grep '^ucx_rma_counter:' "$out" | grep -q 'puts=0 \|gets=0 \|flushes=0$' &&
  fail "WEFT_RMA_PATH=transport: a rank made no UCX put, get or flush"
for path in messages auto; do
  run $path
  grep '^ucx_rma_counter:' "$out" | grep -qv 'puts=0 gets=0 flushes=0$' &&
    fail "WEFT_RMA_PATH=$path: UCX RMA was used on one node"
done
echo "rma path: transport used UCX RMA on every rank; messages and auto did not"
