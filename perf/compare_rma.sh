#!/usr/bin/env bash
# Builds perf/rma_bench.c with Weft, Debian's Open MPI and MPICH, runs them on 2 ranks in
# alternation for ROUNDS rounds, keeps each one's best figure per measure and size (lowest
# latency, highest bandwidth), and prints a markdown table with Weft's ratio to the better peer
# (> 1: Weft is better). A run that fails or hangs (RUN_TIMEOUT seconds, default 120) is
# reported and only its missing figures are left out.
# Usage: perf/compare_rma.sh [ROUNDS]   (env as in perf/compare_common.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
run_timeout=${RUN_TIMEOUT:-120}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. perf/compare_common.sh
# Debian 12's Open MPI 4.1.4 picks its osc rdma component on one node, which dies with SIGSEGV in
# MPI_Fetch_and_op here; its shared-memory component (osc sm) is its fastest one-sided path on
# one node, so the comparison uses that unless the caller sets OMPI_MCA_osc.
export OMPI_MCA_osc=${OMPI_MCA_osc:-sm,ucx}
build_all perf/rma_bench.c

for r in $(seq "$rounds"); do
  for impl in "${impls[@]}"; do
    if ! launch "$impl" 2 >"$work/$impl.out.$r" 2>"$work/$impl.err.$r"; then
      note "$impl: round $r failed (figures it printed are kept):"; tail -3 "$work/$impl.err.$r" >&2
    fi
  done
done

# best.<impl>: "measure bytes value" with the best value over all rounds
for impl in "${impls[@]}"; do
  cat "$work/$impl".out.* | awk 'NF == 3 && $1 !~ /^#/ {
      k = $1 " " $2
      if (!(k in v)) v[k] = $3
      else if ($1 == "put_bw" ? $3 + 0 > v[k] + 0 : $3 + 0 < v[k] + 0) v[k] = $3 }
    END { for (k in v) print k, v[k] }' | sort >"$work/best.$impl"
done
cell() { [ -s "$work/best.$1" ] && awk -v m="$2" -v s="$3" '$1 == m && $2 == s { print $3 }' "$work/best.$1"; }

echo "One-sided on 2 ranks (MPI_Win_allocate, lock_all + flush unless named; Open MPI with OMPI_MCA_osc=$OMPI_MCA_osc), best of $rounds alternating rounds ($(date -u +%Y-%m-%d), $(nproc) cores)"
echo
echo "| measure | Weft | Open MPI | MPICH | Weft vs better peer |"
echo "|---|---|---|---|---|"
for row in "put_lat 8" "get_lat 8" "put_lat 65536" "get_lat 65536" "put_bw 65536" "put_bw 1048576" \
           "put_bw 4194304" "fop_lat 8" "cas_lat 8" "lock_lat 8" "fence_lat 8"; do
  set -- $row
  w=$(cell weft "$1" "$2"); o=$(cell openmpi "$1" "$2"); m=$(cell mpich "$1" "$2")
  best=$(printf '%s\n' $o $m | awk -v bw="$([ "$1" = put_bw ] && echo 1 || echo 0)" \
    'NF { if (n++ == 0 || (bw ? $1 > b : $1 < b)) b = $1 } END { if (n) print b }')
  if [ "$1" = put_bw ]; then r=$(ratio "$w" "$best"); unit="MB/s"; else r=$(ratio "$best" "$w"); unit="us"; fi
  echo "| $1 $2 B ($unit) | ${w:--} | ${o:--} | ${m:--} | $r |"
done
