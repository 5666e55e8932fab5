#!/usr/bin/env bash
# Builds perf/coll_bench.c with Weft, Debian's Open MPI and MPICH, runs every configuration below
# with each of them in alternation for ROUNDS rounds, keeps each one's best (lowest) latency per
# size, and prints markdown tables with Weft's ratio to the better peer.
# Configurations: allreduce, bcast, allgather, alltoall, reduce_scatter on 2 and 4 ranks, and
# allreduce on 8 ranks (oversubscribed on a 2-core machine), sizes 8 B, 16 KiB, 1 MiB, 4 MiB
# (coll_bench's size: the per-rank vector, or the per-rank block for allgather, alltoall and
# reduce_scatter).
# Usage: perf/compare_coll.sh [ROUNDS]          e.g. WEFT_BUILD=build-perf perf/compare_coll.sh 3
# Env: WEFT_BUILD (build tree, default build), WEFT_MPICC (default $WEFT_BUILD/bin/mpicc),
#      WEFT_RUN (launcher, default $WEFT_BUILD/bin/weftrun), RUN_TIMEOUT (seconds one launch may
#      take before it is killed and counted as failed, default 300). A missing implementation is
#      skipped; a failed, hung or wrong run is reported and its figures dropped.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
case $rounds in '' | *[!0-9]* | 0) echo "usage: perf/compare_coll.sh [ROUNDS>0]" >&2; exit 2 ;; esac
build=${WEFT_BUILD:-build}
weft_cc=${WEFT_MPICC:-$build/bin/mpicc}
weft_run=${WEFT_RUN:-$build/bin/weftrun}
run_timeout=${RUN_TIMEOUT:-300}
sizes="8,16384,1048576,4194304"
configs=()
for coll in allreduce bcast allgather alltoall reduce_scatter; do
  configs+=("$coll 2" "$coll 4")
done
configs+=("allreduce 8")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Only loopback traffic: UCX (Weft, MPICH's ch4:ucx, Open MPI's pml ucx), libfabric, Open MPI's
# TCP BTL and its runtime's out-of-band channel, and MPICH's Hydra (-iface lo below).
export UCX_NET_DEVICES=lo FI_TCP_IFACE=lo FI_SOCKETS_IFACE=lo UCX_WARN_UNUSED_ENV_VARS=n
export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo HYDRA_IFACE=lo

impls=()
problems=()  # one line per failed, hung or wrong run, repeated at the end of the report
note() { echo "# $*" >&2; }
build_one() {  # build_one NAME COMPILER: compile the benchmark, or say why NAME is skipped
  if ! command -v "$2" >/dev/null; then
    note "$1: compiler $2 not found, skipped"
  elif "$2" -O2 -o "$work/$1" perf/coll_bench.c 2>"$work/$1.cc"; then
    impls+=("$1")
  else
    note "$1: $2 failed to build coll_bench, skipped:"; cat "$work/$1.cc" >&2
  fi
}
if [ -x "$weft_run" ]; then build_one weft "$weft_cc"; else note "weft: launcher $weft_run not found, skipped"; fi
if command -v mpirun.openmpi >/dev/null; then build_one openmpi mpicc.openmpi
else note "openmpi: not installed (apt-get install openmpi-bin libopenmpi-dev), skipped"; fi
if command -v mpiexec.mpich >/dev/null; then build_one mpich mpicc.mpich
else note "mpich: not installed (apt-get install mpich libmpich-dev), skipped"; fi
[ ${#impls[@]} -gt 0 ] || { note "nothing to compare"; exit 1; }

launch() {  # launch IMPL NRANKS COLL
  local cmd
  case $1 in
    weft) cmd=("$weft_run" -n "$2") ;;
    openmpi) cmd=(mpirun.openmpi --allow-run-as-root --oversubscribe -n "$2") ;;
    mpich) cmd=(mpiexec.mpich -iface lo -n "$2") ;;
  esac
  timeout -k 10 "$run_timeout" "${cmd[@]}" "$work/$1" "$3" -s "$sizes"
}

# Alternate: every round runs each implementation once per configuration, so drifts in machine
# load hit all alike.
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)
for r in $(seq "$rounds"); do
  for config in "${configs[@]}"; do
    set -- $config
    for impl in "${impls[@]}"; do
      out="$work/$impl.$1.$2.$r"
      rc=0
      launch "$impl" "$2" "$1" >"$out.raw" 2>"$out.err" || rc=$?
      if grep -q "WRONG RESULT" "$out.err"; then
        problems+=("$impl $1 on $2 ranks, round $r: WRONG RESULT: $(grep -m1 'WRONG RESULT' "$out.err")")
      elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        problems+=("$impl $1 on $2 ranks, round $r: killed after ${run_timeout}s (hang?); sizes done: $(awk 'NF == 4 && $1 ~ /^[0-9]+$/ { printf "%s ", $1 }' "$out.raw")")
      elif [ "$rc" != 0 ]; then
        problems+=("$impl $1 on $2 ranks, round $r: exit status $rc: $(tail -1 "$out.err")")
      fi
      if [ "$rc" != 0 ]; then
        note "$impl $1 on $2 ranks, round $r failed (exit $rc); its output dropped:"; tail -5 "$out.err" >&2
        : >"$out.raw"
      fi
      awk 'NF == 4 && $1 ~ /^[0-9]+$/' "$out.raw" >"$out"
    done
  done
done
elapsed=$(($(date +%s) - start))

# best.<impl>.<coll>.<n>: size avg_us algbw busbw of the round with the lowest latency per size
for impl in "${impls[@]}"; do
  for config in "${configs[@]}"; do
    set -- $config
    cat "$work/$impl.$1.$2".[0-9]* | awk '{ if (!($1 in lat) || $2 < lat[$1]) { lat[$1] = $2; line[$1] = $0 } }
      END { for (s in line) print line[s] }' | sort -n >"$work/best.$impl.$1.$2"
  done
done

cell() {  # cell IMPL COLL N SIZE COLUMN
  local f="$work/best.$1.$2.$3" v=""
  [ -s "$f" ] && v=$(awk -v s="$4" -v c="$5" '$1 == s { print $c }' "$f")
  echo "${v:--}"
}
weft_ratio() {  # weft_ratio COLL N SIZE: better peer latency / Weft latency, > 1 means Weft faster
  local w p="" v
  w=$(cell weft "$1" "$2" "$3" 2)
  for impl in openmpi mpich; do
    v=$(cell "$impl" "$1" "$2" "$3" 2)
    [ "$v" = - ] && continue
    if [ -z "$p" ] || awk -v a="$v" -v b="$p" 'BEGIN { exit !(a < b) }'; then p=$v; fi
  done
  if [ "$w" != - ] && [ -n "$p" ]; then awk -v a="$p" -v b="$w" 'BEGIN { r = a / b; printf(r < 0.095 ? "%.3fx" : "%.2fx", r) }'; else echo "-"; fi
}
human() { awk -v b="$1" 'BEGIN { if (b >= 1048576) printf "%g MiB", b / 1048576; else if (b >= 1024) printf "%g KiB", b / 1024; else printf "%d B", b }'; }

echo "Collectives, best of $rounds alternating rounds ($(date -u +%Y-%m-%d), $(nproc) cores," \
     "load average $load_before at start, $(cut -d' ' -f1-3 /proc/loadavg) at end, ${elapsed}s)"
echo "Implementations: ${impls[*]}. Benchmark: perf/coll_bench.c (MPI_FLOAT, MPI_SUM); latency is"
echo "the mean per call, max over ranks; busbw per nccl-tests. Size is the per-rank vector"
echo "(allreduce, bcast) or the per-rank block (allgather, alltoall, reduce_scatter)."
echo "Ratio = better peer latency / Weft latency: > 1 means Weft is faster."
echo
echo "Summary, Weft vs better peer:"
echo
echo "| collective | ranks | 8 B | 16 KiB | 1 MiB | 4 MiB |"
echo "|---|---|---|---|---|---|"
for config in "${configs[@]}"; do
  set -- $config
  row="| $1 | $2"
  for s in ${sizes//,/ }; do row+=" | $(weft_ratio "$1" "$2" "$s")"; done
  echo "$row |"
done
for config in "${configs[@]}"; do
  set -- $config
  echo
  echo "$1, $2 ranks$([ "$2" -gt "$(nproc)" ] && echo " (oversubscribed)"):"
  echo
  echo "| size | Weft us | Open MPI us | MPICH us | Weft vs better peer | Weft busbw GB/s | Open MPI busbw GB/s | MPICH busbw GB/s |"
  echo "|---|---|---|---|---|---|---|---|"
  for s in ${sizes//,/ }; do
    echo "| $(human "$s") | $(cell weft "$1" "$2" "$s" 2) | $(cell openmpi "$1" "$2" "$s" 2) | $(cell mpich "$1" "$2" "$s" 2)" \
         "| $(weft_ratio "$1" "$2" "$s") | $(cell weft "$1" "$2" "$s" 4) | $(cell openmpi "$1" "$2" "$s" 4) | $(cell mpich "$1" "$2" "$s" 4) |"
  done
done
echo
if [ ${#problems[@]} -eq 0 ]; then
  echo "All runs completed with correct results."
else
  echo "Problems (figures from these runs were dropped):"
  echo
  for p in "${problems[@]}"; do echo "- $p"; done
fi
