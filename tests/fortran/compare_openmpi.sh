#!/usr/bin/env bash
# Builds a tests/fortran program's sources with Debian's Open MPI (mpifort.openmpi) and checks
# that at each rank count it prints the same result line as the Weft build of the same sources
# under weftrun. Exits 77 (ctest: skipped) when Open MPI is not installed.
# Usage: compare_openmpi.sh WEFTRUN WEFT_PROGRAM "NP..." "FLAGS" SOURCE...
set -euo pipefail
weftrun=$1 program=$2 nps=$3 flags=$4
shift 4
if ! command -v mpifort.openmpi >/dev/null || ! command -v mpirun.openmpi >/dev/null; then
  echo "Open MPI (mpifort.openmpi, mpirun.openmpi) is not installed: skipping the comparison"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086  # FLAGS is a list of compiler options
mpifort.openmpi $flags -I"$(dirname "$1")" -J "$work" -o "$work/program" "$@"
export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
result_line() { "$@" | grep -E '^[a-z0-9_]+: ' | tail -1; }
for np in $nps; do
  weft=$(result_line "$weftrun" -n "$np" --timeout 60 "$program")
  ompi=$(result_line mpirun.openmpi --allow-run-as-root --oversubscribe -n "$np" "$work/program")
  echo "Weft     -n $np: $weft"
  echo "Open MPI -n $np: $ompi"
  [ -n "$weft" ] || { echo "FAIL: no result line from Weft at $np ranks" >&2; exit 1; }
  [ "$weft" = "$ompi" ] || { echo "FAIL: the two differ at $np ranks" >&2; exit 1; }
done
