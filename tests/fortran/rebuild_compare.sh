#!/usr/bin/env bash
# Builds a tests/fortran program's sources again with another compiler wrapper and checks that at
# each rank count the new build prints the same result line as the CMake build under weftrun.
# MPIFORT "openmpi" is Debian's Open MPI (mpifort.openmpi, run by mpirun.openmpi; exit 77, ctest's
# skipped, when it is not installed); anything else is the path of Weft's mpifort (run by WEFTRUN).
# Usage: rebuild_compare.sh WEFTRUN WEFT_PROGRAM "NP..." "FLAGS" MPIFORT SOURCE...
set -euo pipefail
weftrun=$1 program=$2 nps=$3 flags=$4 mpifort=$5
shift 5
if [ "$mpifort" = openmpi ]; then
  if ! command -v mpifort.openmpi >/dev/null || ! command -v mpirun.openmpi >/dev/null; then
    echo "Open MPI (mpifort.openmpi, mpirun.openmpi) is not installed: skipping the comparison"
    exit 77
  fi
  mpifort=mpifort.openmpi label="Open MPI"
  launch=(mpirun.openmpi --allow-run-as-root --oversubscribe)
  export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
else
  label="$(basename "$mpifort")"
  launch=("$weftrun" --timeout 60)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086  # FLAGS is a list of compiler options
"$mpifort" $flags -I"$(dirname "$1")" -J "$work" -o "$work/program" "$@"
result_line() { "$@" | grep -E '^[a-z0-9_]+: ' | tail -1; }
for np in $nps; do
  want=$(result_line "$weftrun" -n "$np" --timeout 60 "$program")
  got=$(result_line "${launch[@]}" -n "$np" "$work/program")
  echo "CMake build -n $np: $want"
  printf '%-11s -n %s: %s\n' "$label" "$np" "$got"
  [ -n "$want" ] || { echo "FAIL: no result line from the CMake build at $np ranks" >&2; exit 1; }
  [ "$want" = "$got" ] || { echo "FAIL: the two builds differ at $np ranks" >&2; exit 1; }
done
