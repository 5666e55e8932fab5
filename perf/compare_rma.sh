#!/usr/bin/env bash
# Builds perf/rma_bench.c with Weft, Debian's Open MPI and MPICH, runs them on 2 ranks in
# alternation for ROUNDS rounds, keeps each one's best figure per measure and size (lowest
# latency, highest bandwidth), and prints a markdown table with Weft's ratio to the better peer
# (> 1: Weft is better). A run that fails or hangs (RUN_TIMEOUT seconds, default 120) is
# reported and only its missing figures are left out.
# With `network`, every one goes through the network path on loopback (node shared memory off,
# every target reached as on another node): Weft with WEFT_RMA_PATH=transport over libfabric
# (tcp;ofi_rxm: fi_writemsg/fi_readmsg/fi_atomicmsg) and over UCX (UCX_TLS=tcp), Open MPI's osc
# ucx and MPICH's ch4:ucx (MPIR_CVAR_NOLOCAL=1) over UCX_TLS=tcp.
# Usage: perf/compare_rma.sh [ROUNDS [network]]   (env as in perf/compare_common.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
mode=${2:-node}
run_timeout=${RUN_TIMEOUT:-120}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. perf/compare_common.sh
# Debian 12's Open MPI 4.1.4 picks its osc rdma component on one node, which dies with SIGSEGV in
# MPI_Fetch_and_op here; its shared-memory component (osc sm) is its fastest one-sided path on
# one node, so the comparison uses that unless the caller sets OMPI_MCA_osc.
export OMPI_MCA_osc=${OMPI_MCA_osc:-sm,ucx}
build_all perf/rma_bench.c

configs=("${impls[@]}")
if [ "$mode" = network ]; then
  configs=()
  for impl in "${impls[@]}"; do
    case $impl in
      weft) configs+=(weft_ofi weft_ucx_tcp) ;;
      openmpi) configs+=(openmpi_ucx_tcp) ;;
      mpich) configs+=(mpich_ucx_tcp) ;;
    esac
  done
fi
run_config() {
  case $1 in
    weft_ofi) WEFT_TRANSPORT=ofi WEFT_SHM=0 WEFT_RMA_PATH=transport launch weft 2 ;;
    weft_ucx_tcp) WEFT_TRANSPORT=ucx WEFT_SHM=0 WEFT_RMA_PATH=transport UCX_TLS=tcp launch weft 2 ;;
    openmpi_ucx_tcp) timeout -k 10 "$run_timeout" mpirun.openmpi --allow-run-as-root \
        --oversubscribe -n 2 --mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any \
        --mca osc ucx -x UCX_TLS=tcp -x UCX_NET_DEVICES=lo \
        "$work/openmpi" ;;
    mpich_ucx_tcp) MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp launch mpich 2 ;;
    *) launch "$1" 2 ;;
  esac
}

for r in $(seq "$rounds"); do
  for impl in "${configs[@]}"; do
    if ! run_config "$impl" >"$work/$impl.out.$r" 2>"$work/$impl.err.$r"; then
      note "$impl: round $r failed (figures it printed are kept):"; tail -3 "$work/$impl.err.$r" >&2
    fi
  done
done

# best.<config>: "measure bytes value" with the best value over all rounds
for impl in "${configs[@]}"; do
  cat "$work/$impl".out.* | awk 'NF == 3 && $1 !~ /^#/ {
      k = $1 " " $2
      if (!(k in v)) v[k] = $3
      else if ($1 == "put_bw" ? $3 + 0 > v[k] + 0 : $3 + 0 < v[k] + 0) v[k] = $3 }
    END { for (k in v) print k, v[k] }' | sort >"$work/best.$impl"
done
cell() { [ -s "$work/best.$1" ] && awk -v m="$2" -v s="$3" '$1 == m && $2 == s { print $3 }' "$work/best.$1"; }

rows=("put_lat 8" "get_lat 8" "put_lat 65536" "get_lat 65536" "put_bw 65536" "put_bw 1048576"
      "put_bw 4194304" "fop_lat 8" "cas_lat 8" "lock_lat 8" "fence_lat 8")
if [ "$mode" = network ]; then
  echo "One-sided on 2 ranks through the network path on loopback (MPI_Win_allocate, lock_all + flush unless named), best of $rounds alternating rounds ($(date -u +%Y-%m-%d), $(nproc) cores)"
  echo
  header="| measure"
  for c in "${configs[@]}"; do header+=" | $c"; done
  echo "$header |"
  printf '|---%.0s' measure "${configs[@]}"; echo "|"
  for row in "${rows[@]}"; do
    set -- $row
    line="| $1 $2 B ($([ "$1" = put_bw ] && echo MB/s || echo us))"
    for c in "${configs[@]}"; do v=$(cell "$c" "$1" "$2"); line+=" | ${v:--}"; done
    echo "$line |"
  done
  exit 0
fi
echo "One-sided on 2 ranks (MPI_Win_allocate, lock_all + flush unless named; Open MPI with OMPI_MCA_osc=$OMPI_MCA_osc), best of $rounds alternating rounds ($(date -u +%Y-%m-%d), $(nproc) cores)"
echo
echo "| measure | Weft | Open MPI | MPICH | Weft vs better peer |"
echo "|---|---|---|---|---|"
for row in "${rows[@]}"; do
  set -- $row
  w=$(cell weft "$1" "$2"); o=$(cell openmpi "$1" "$2"); m=$(cell mpich "$1" "$2")
  best=$(printf '%s\n' $o $m | awk -v bw="$([ "$1" = put_bw ] && echo 1 || echo 0)" \
    'NF { if (n++ == 0 || (bw ? $1 > b : $1 < b)) b = $1 } END { if (n) print b }')
  if [ "$1" = put_bw ]; then r=$(ratio "$w" "$best"); unit="MB/s"; else r=$(ratio "$best" "$w"); unit="us"; fi
  echo "| $1 $2 B ($unit) | ${w:--} | ${o:--} | ${m:--} | $r |"
done
