#!/usr/bin/env bash
# Builds perf/p2p_bench.c with Weft, Debian's Open MPI and MPICH, runs them on 2 ranks in
# alternation for ROUNDS rounds, keeps each one's best figure per size (lowest latency, highest
# bandwidth), and prints markdown tables with Weft's ratio to the better peer.
# Usage: perf/compare_p2p.sh [ROUNDS]   (env: WEFT_BUILD=build)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
build=${WEFT_BUILD:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export UCX_NET_DEVICES=lo FI_TCP_IFACE=lo FI_SOCKETS_IFACE=lo

impls=()
if [ -x "$build/bin/mpicc" ]; then
  "$build/bin/mpicc" -O2 -o "$work/weft" perf/p2p_bench.c && impls+=(weft)
fi
if command -v mpicc.openmpi >/dev/null; then
  mpicc.openmpi -O2 -o "$work/openmpi" perf/p2p_bench.c && impls+=(openmpi)
else
  echo "# Open MPI not installed (apt-get install openmpi-bin libopenmpi-dev): skipped" >&2
fi
if command -v mpicc.mpich >/dev/null; then
  mpicc.mpich -O2 -o "$work/mpich" perf/p2p_bench.c && impls+=(mpich)
else
  echo "# MPICH not installed (apt-get install mpich libmpich-dev): skipped" >&2
fi

launch() {
  case $1 in
    weft) "$build/bin/weftrun" -n 2 "$work/weft" ;;
    openmpi) mpirun.openmpi --allow-run-as-root --oversubscribe -n 2 "$work/openmpi" ;;
    mpich) mpiexec.mpich -n 2 "$work/mpich" ;;
  esac
}

for r in $(seq "$rounds"); do
  for impl in "${impls[@]}"; do
    launch "$impl" | grep -v '^#' >"$work/$impl.$r"
  done
done

# best.<impl>: size best_latency best_bandwidth over all rounds
for impl in "${impls[@]}"; do
  cat "$work/$impl".* | awk '{ if (!($1 in lat) || $2 < lat[$1]) lat[$1] = $2;
                               if (!($1 in bw) || $3 > bw[$1]) bw[$1] = $3 }
                             END { for (s in lat) print s, lat[s], bw[s] }' | sort -n >"$work/best.$impl"
done

value() { awk -v s="$2" -v c="$3" '$1 == s { print $c }' "$work/best.$1"; }
peer() {  # peer SIZE COLUMN lower|higher: the better of Open MPI and MPICH
  local best="" v
  for impl in openmpi mpich; do
    [ -f "$work/best.$impl" ] || continue
    v=$(value "$impl" "$1" "$2")
    if [ -z "$best" ] || awk -v a="$v" -v b="$best" -v d="$3" 'BEGIN { exit !((d == "lower" && a < b) || (d == "higher" && a > b)) }'; then
      best=$v
    fi
  done
  echo "$best"
}
ratio() { [ -n "$1" ] && [ -n "$2" ] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }' || echo "-"; }
cell() { [ -f "$work/best.$1" ] && value "$1" "$2" "$3" || echo "-"; }

echo "Point-to-point on 2 ranks, best of $rounds alternating rounds ($(date -u +%Y-%m-%d), $(nproc) cores)"
echo
echo "| measure | Weft | Open MPI | MPICH | Weft vs better peer |"
echo "|---|---|---|---|---|"
for row in "8 2 lower latency_us" "1048576 3 higher bandwidth_MBps" "4194304 3 higher bandwidth_MBps"; do
  set -- $row
  w=$(cell weft "$1" "$2"); p=$(peer "$1" "$2" "$3")
  if [ "$3" = lower ]; then r=$(ratio "$p" "$w"); else r=$(ratio "$w" "$p"); fi
  echo "| $4 @ $1 B | $w | $(cell openmpi "$1" "$2") | $(cell mpich "$1" "$2") | ${r}x |"
done
echo
echo "(ratio > 1 means Weft is better: peer latency / Weft latency, Weft bandwidth / peer bandwidth)"
echo
echo "| size | Weft lat us | Open MPI lat us | MPICH lat us | Weft MB/s | Open MPI MB/s | MPICH MB/s |"
echo "|---|---|---|---|---|---|---|"
for s in $(awk '{print $1}' "$work/best.${impls[0]}"); do
  echo "| $s | $(cell weft "$s" 2) | $(cell openmpi "$s" 2) | $(cell mpich "$s" 2) | $(cell weft "$s" 3) | $(cell openmpi "$s" 3) | $(cell mpich "$s" 3) |"
done
