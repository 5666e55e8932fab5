#!/usr/bin/env bash
# Runs an application under weftrun at several rank counts and checks that each run prints the
# same result line (the app checks itself too). When Debian's Open MPI is installed, also builds
# the same source with mpicc.openmpi, runs it at two rank counts and checks it prints that line.
# Usage: run_app.sh WEFTRUN PROGRAM SOURCE "NP..." [ARGS...]
set -euo pipefail
weftrun=$1 program=$2 source=$3 nps=$4
shift 4
want=""
for np in $nps; do
  line=$("$weftrun" -n "$np" --timeout 120 "$program" "$@" | grep -E '^[a-z0-9]+: ' | tail -1)
  echo "weft -n $np: $line"
  [ -n "$line" ] || { echo "FAIL: no result line at $np ranks" >&2; exit 1; }
  [ -z "$want" ] && want=$line
  [ "$line" = "$want" ] || { echo "FAIL: $np ranks printed a different result" >&2; exit 1; }
done
if ! command -v mpicc.openmpi >/dev/null || ! command -v mpirun.openmpi >/dev/null; then
  echo "Open MPI is not installed: skipping the comparison with it"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc.openmpi -O2 -o "$work/app" "$source" -lm
export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
for np in 2 4; do
  line=$(mpirun.openmpi --allow-run-as-root --oversubscribe -n "$np" "$work/app" "$@" | grep -E '^[a-z0-9]+: ' | tail -1)
  echo "Open MPI -n $np: $line"
  [ "$line" = "$want" ] || { echo "FAIL: Open MPI at $np ranks printed a different result" >&2; exit 1; }
done
