#!/usr/bin/env bash
# Point-to-point latency and bandwidth (perf/p2p_bench.c, 2 ranks) through the network path on
# loopback, node shared memory off everywhere: Weft over libfabric (tcp;ofi_rxm) and over UCX
# (UCX_TLS=tcp), Open MPI over libfabric (pml cm, mtl ofi, tcp;ofi_rxm) and over UCX
# (UCX_TLS=tcp), MPICH (ch4:ucx) over UCX_TLS=tcp. Alternating rounds, each configuration's best
# figure per size (lowest latency, highest bandwidth), printed as one markdown table.
# With `coll`, the same configurations run perf/coll_bench.c instead: allreduce and bcast of 8 B
# and 64 KiB on COLL_RANKS ranks (default 4), each configuration's lowest time per call.
# Usage: perf/compare_transports.sh [ROUNDS [BENCH_ARGS... | coll]]
#   e.g. perf/compare_transports.sh 3 -m 65536; perf/compare_transports.sh 3 coll
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift $(($# > 0 ? 1 : 0))
bench_args=("$@")
mode=p2p
if [ "${1:-}" = coll ]; then mode=coll; bench_args=(); fi
ranks=2
[ "$mode" = coll ] && ranks=${COLL_RANKS:-4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run_timeout=300
# Busy-polling ranks oversubscribed on few cores can take minutes per call (MPICH here): a
# collective run that has not finished after COLL_TIMEOUT seconds (default 60) is left out.
[ "$mode" = coll ] && run_timeout=${COLL_TIMEOUT:-60}
. perf/compare_common.sh
if [ "$mode" = coll ]; then build_all perf/coll_bench.c; else build_all perf/p2p_bench.c; fi

configs=()
for impl in "${impls[@]}"; do
  case $impl in
    weft) configs+=(weft_ofi weft_ucx_tcp) ;;
    openmpi) configs+=(openmpi_ofi openmpi_ucx_tcp) ;;
    mpich) configs+=(mpich_ucx_tcp) ;;
  esac
done

run_config() {
  case $1 in
    weft_ofi) WEFT_TRANSPORT=ofi WEFT_SHM=0 launch weft "$ranks" "${bench_args[@]}" ;;
    weft_ucx_tcp) WEFT_TRANSPORT=ucx WEFT_SHM=0 UCX_TLS=tcp launch weft "$ranks" "${bench_args[@]}" ;;
    openmpi_ofi) timeout -k 10 "$run_timeout" mpirun.openmpi --allow-run-as-root --oversubscribe \
        -n "$ranks" --mca pml cm --mca mtl ofi --mca mtl_ofi_provider_include tcp -x FI_TCP_IFACE=lo \
        "$work/openmpi" "${bench_args[@]}" ;;
    openmpi_ucx_tcp) timeout -k 10 "$run_timeout" mpirun.openmpi --allow-run-as-root \
        --oversubscribe -n "$ranks" --mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any \
        -x UCX_TLS=tcp -x UCX_NET_DEVICES=lo \
        "$work/openmpi" "${bench_args[@]}" ;;
    mpich_ucx_tcp) MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp launch mpich "$ranks" "${bench_args[@]}" ;;
  esac
}

# Collectives: per configuration and collective, the lowest time per call of each size; Open MPI
# and MPICH run their own collective components over the network path named.
if [ "$mode" = coll ]; then
  colls=(allreduce bcast)
  for r in $(seq "$rounds"); do
    for coll in "${colls[@]}"; do
      bench_args=("$coll" -s 8,64K)
      for c in "${configs[@]}"; do
        run_config "$c" >"$work/$c.$coll.out.$r" 2>"$work/$c.$coll.err.$r" || {
          note "$c $coll: round $r failed; its output dropped:"; tail -3 "$work/$c.$coll.err.$r" >&2
          : >"$work/$c.$coll.out.$r"
        }
      done
    done
  done
  echo "Collectives through the network path on loopback (node shared memory off), $ranks ranks," \
       "best of $rounds alternating rounds ($(date -u +%Y-%m-%d), $(nproc) cores, shared machine)"
  echo
  header="| call |" line="|---|"
  for c in "${configs[@]}"; do header="$header $c us |"; line="$line---|"; done
  echo "$header"
  echo "$line"
  for coll in "${colls[@]}"; do
    for s in 8 65536; do
      row="| $coll $s B |"
      for c in "${configs[@]}"; do
        v=$(cat "$work/$c.$coll".out.* | awk -v s="$s" '$1 == s && NF == 4 {
              if (best == "" || $2 < best) best = $2 } END { print best }')
        row="$row ${v:--} |"
      done
      echo "$row"
    done
  done
  exit 0
fi

for r in $(seq "$rounds"); do
  for c in "${configs[@]}"; do
    run_config "$c" >"$work/$c.out.$r" 2>"$work/$c.err.$r" || {
      note "$c: round $r failed; its output dropped:"; tail -3 "$work/$c.err.$r" >&2
      : >"$work/$c.out.$r"
    }
    grep -v '^#' "$work/$c.out.$r" >"$work/$c.$r" || true
  done
done

for c in "${configs[@]}"; do
  cat "$work/$c".[0-9]* | awk 'NF == 3 {
      if (!($1 in lat) || $2 < lat[$1]) lat[$1] = $2
      if (!($1 in bw) || $3 > bw[$1]) bw[$1] = $3 }
    END { for (s in lat) print s, lat[s], bw[s] }' | sort -n >"$work/best.$c"
done
cell() { local v=""; [ -s "$work/best.$1" ] && v=$(awk -v s="$2" -v c="$3" '$1 == s { print $c }' "$work/best.$1"); echo "${v:--}"; }

echo "Network path on loopback (node shared memory off), 2 ranks, best of $rounds alternating rounds ($(date -u +%Y-%m-%d), $(nproc) cores, shared machine)"
echo
header="| size B |" line="|---|"
for c in "${configs[@]}"; do header="$header $c lat us | $c MB/s |"; line="$line---|---|"; done
echo "$header"
echo "$line"
for s in $(cat "$work"/best.* | awk '{ print $1 }' | sort -nu); do
  row="| $s |"
  for c in "${configs[@]}"; do row="$row $(cell "$c" "$s" 2) | $(cell "$c" "$s" 3) |"; done
  echo "$row"
done
