#!/usr/bin/env bash
# Runs a program under weftrun and checks that the call_counter tool saw exactly 3 MPI_Send and
# 2 MPI_Allreduce on every rank. Usage: check_counts.sh WEFTRUN NP [VAR=value] PROGRAM
set -euo pipefail
weftrun=$1 np=$2
shift 2
out=$("$weftrun" -n "$np" --timeout 60 "$@")
echo "$out"
want="MPI_Send 3 MPI_Allreduce 2"
for r in $(seq 0 $((np - 1))); do
  if ! grep -qx "call_counter: rank $r: $want" <<<"$out"; then
    echo "FAIL: rank $r did not report '$want'" >&2
    exit 1
  fi
done
