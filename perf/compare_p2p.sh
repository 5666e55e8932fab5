#!/usr/bin/env bash
# Builds perf/p2p_bench.c with Weft, Debian's Open MPI and MPICH, runs them on 2 ranks in
# alternation for ROUNDS rounds, keeps each one's best figure per size (lowest latency, highest
# bandwidth), and prints markdown tables with Weft's ratio to the better peer.
# Usage: perf/compare_p2p.sh [ROUNDS [BENCH_ARGS...]]   e.g. perf/compare_p2p.sh 3 -m 1048576
# Env: WEFT_BUILD (build tree, default build), WEFT_MPICC (default $WEFT_BUILD/bin/mpicc),
#      WEFT_RUN (launcher, default $WEFT_BUILD/bin/weftrun). A missing implementation is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift $(($# > 0 ? 1 : 0))
bench_args=("$@")
build=${WEFT_BUILD:-build}
weft_cc=${WEFT_MPICC:-$build/bin/mpicc}
weft_run=${WEFT_RUN:-$build/bin/weftrun}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export UCX_NET_DEVICES=lo FI_TCP_IFACE=lo FI_SOCKETS_IFACE=lo UCX_WARN_UNUSED_ENV_VARS=n

impls=()
note() { echo "# $*" >&2; }
build_one() {  # build_one NAME COMPILER: compile the benchmark, or say why NAME is skipped
  if ! command -v "$2" >/dev/null; then
    note "$1: compiler $2 not found, skipped"
  elif "$2" -O2 -o "$work/$1" perf/p2p_bench.c 2>"$work/$1.cc"; then
    impls+=("$1")
  else
    note "$1: $2 failed to build p2p_bench, skipped:"; cat "$work/$1.cc" >&2
  fi
}
if [ -x "$weft_run" ]; then build_one weft "$weft_cc"; else note "weft: launcher $weft_run not found, skipped"; fi
if command -v mpirun.openmpi >/dev/null; then build_one openmpi mpicc.openmpi
else note "openmpi: not installed (apt-get install openmpi-bin libopenmpi-dev), skipped"; fi
if command -v mpiexec.mpich >/dev/null; then build_one mpich mpicc.mpich
else note "mpich: not installed (apt-get install mpich libmpich-dev), skipped"; fi
[ ${#impls[@]} -gt 0 ] || { note "nothing to compare"; exit 1; }

launch() {
  case $1 in
    weft) "$weft_run" -n 2 "$work/weft" "${bench_args[@]}" ;;
    openmpi) mpirun.openmpi --allow-run-as-root --oversubscribe -n 2 "$work/openmpi" "${bench_args[@]}" ;;
    mpich) mpiexec.mpich -n 2 "$work/mpich" "${bench_args[@]}" ;;
  esac
}

# Alternate: every round runs each implementation once, so drifts in machine load hit all alike.
for r in $(seq "$rounds"); do
  for impl in "${impls[@]}"; do
    if ! launch "$impl" >"$work/$impl.out.$r" 2>"$work/$impl.err.$r"; then
      note "$impl: round $r failed; its output dropped:"; tail -5 "$work/$impl.err.$r" >&2
      : >"$work/$impl.out.$r"
    fi
    grep -v '^#' "$work/$impl.out.$r" >"$work/$impl.$r" || true
  done
done

# best.<impl>: size best_latency best_bandwidth over all rounds
for impl in "${impls[@]}"; do
  cat "$work/$impl".[0-9]* | awk 'NF == 3 {
      if (!($1 in lat) || $2 < lat[$1]) lat[$1] = $2
      if (!($1 in bw) || $3 > bw[$1]) bw[$1] = $3 }
    END { for (s in lat) print s, lat[s], bw[s] }' | sort -n >"$work/best.$impl"
done

value() { awk -v s="$2" -v c="$3" '$1 == s { print $c }' "$work/best.$1"; }
peer() {  # peer SIZE COLUMN lower|higher: the better of Open MPI and MPICH
  local best="" v
  for impl in openmpi mpich; do
    [ -s "$work/best.$impl" ] || continue
    v=$(value "$impl" "$1" "$2")
    [ -n "$v" ] || continue
    if [ -z "$best" ] || awk -v a="$v" -v b="$best" -v d="$3" 'BEGIN { exit !((d == "lower" && a < b) || (d == "higher" && a > b)) }'; then
      best=$v
    fi
  done
  echo "$best"
}
ratio() { if [ -n "$1" ] && [ -n "$2" ]; then awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; else echo "-"; fi; }
cell() { local v=""; [ -s "$work/best.$1" ] && v=$(value "$1" "$2" "$3"); echo "${v:--}"; }
weft_ratio() {  # weft_ratio SIZE COLUMN lower|higher: > 1 means Weft is better
  local w p
  w=$(cell weft "$1" "$2"); p=$(peer "$1" "$2" "$3")
  [ "$w" = - ] && w=""
  if [ "$3" = lower ]; then ratio "$p" "$w"; else ratio "$w" "$p"; fi
}

echo "Point-to-point on 2 ranks, best of $rounds alternating rounds ($(date -u +%Y-%m-%d), $(nproc) cores)"
echo
echo "| measure | Weft | Open MPI | MPICH | Weft vs better peer |"
echo "|---|---|---|---|---|"
for row in "8 2 lower latency_us" "1048576 3 higher bandwidth_MBps" "4194304 3 higher bandwidth_MBps"; do
  set -- $row
  echo "| $4 @ $1 B | $(cell weft "$1" "$2") | $(cell openmpi "$1" "$2") | $(cell mpich "$1" "$2") | $(weft_ratio "$1" "$2" "$3") |"
done
echo
echo "(ratio > 1 means Weft is better: peer latency / Weft latency, Weft bandwidth / peer bandwidth)"
echo
echo "| size B | Weft lat us | Open MPI lat us | MPICH lat us | lat ratio | Weft MB/s | Open MPI MB/s | MPICH MB/s | bw ratio |"
echo "|---|---|---|---|---|---|---|---|---|"
for s in $(cat "$work"/best.* | awk '{ print $1 }' | sort -nu); do
  echo "| $s | $(cell weft "$s" 2) | $(cell openmpi "$s" 2) | $(cell mpich "$s" 2) | $(weft_ratio "$s" 2 lower)" \
       "| $(cell weft "$s" 3) | $(cell openmpi "$s" 3) | $(cell mpich "$s" 3) | $(weft_ratio "$s" 3 higher) |"
done
