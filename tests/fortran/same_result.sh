#!/usr/bin/env bash
# Runs two programs under weftrun at the same rank count and checks that they print the same
# result line (the last line of the form "name: ..."), e.g. a Fortran port and its C original.
# Usage: same_result.sh WEFTRUN NP PROGRAM REFERENCE
set -euo pipefail
weftrun=$1 np=$2 program=$3 reference=$4
result_line() { "$weftrun" -n "$np" --timeout 60 "$1" | grep -E '^[a-z0-9_]+: ' | tail -1; }
got=$(result_line "$program")
want=$(result_line "$reference")
echo "$(basename "$program") -n $np: $got"
echo "$(basename "$reference") -n $np: $want"
[ -n "$got" ] || { echo "FAIL: no result line" >&2; exit 1; }
[ "$got" = "$want" ] || { echo "FAIL: the result lines differ" >&2; exit 1; }
