#!/usr/bin/env bash
# Builds perf/coll_bench.c with Weft, Debian's Open MPI and MPICH, runs every configuration below
# with each of them in alternation for ROUNDS rounds, keeps each one's best (lowest) latency per
# size, and prints markdown tables (OSU-style per-call latency with Weft's ratio to the better
# peer, nccl-tests bus bandwidth) under the machine's floor (perf/cacheline_floor.c).
# Configurations: allreduce, bcast, allgather, alltoall, reduce_scatter at 8 B, 16 KiB, 1 MiB and
# 4 MiB, and barrier, on 2 and 4 ranks; allreduce at 8 B and 1 MiB and barrier on 8 ranks
# (oversubscribed on a 2-core machine). Size is coll_bench's: the per-rank vector (allreduce,
# bcast), or the per-rank block (allgather, alltoall, reduce_scatter).
# Usage: perf/compare_coll.sh [ROUNDS [ITERATIONS]]
#   ITERATIONS: coll_bench's -i, the most timed calls per size (default 1000); a quick check of
#   the script: perf/compare_coll.sh 1 20.
#   e.g. COLLS="allreduce bcast barrier" perf/compare_coll.sh 5   (the table of issue 13)
# Env: COLLS (the collectives to run, default all of the above), RUN_TIMEOUT (seconds one launch
#      may take before it is killed and counted as failed, default 300), and those of
#      perf/compare_common.sh. A missing implementation is skipped; a failed, hung or wrong run
#      is reported and its figures dropped.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
iterations=${2:-1000}
usage="usage: perf/compare_coll.sh [ROUNDS>0 [ITERATIONS>0]]"
case $rounds in '' | *[!0-9]* | 0) echo "$usage" >&2; exit 2 ;; esac
case $iterations in '' | *[!0-9]* | 0) echo "$usage" >&2; exit 2 ;; esac
colls=${COLLS:-allreduce bcast allgather alltoall reduce_scatter barrier}
run_timeout=${RUN_TIMEOUT:-300}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. perf/compare_common.sh

# "collective ranks sizes": barrier has no size (coll_bench reports it as size 0).
sizes="8,16384,1048576,4194304"
configs=()
for n in 2 4; do
  for coll in $colls; do configs+=("$coll $n $sizes"); done
done
for coll in $colls; do
  case $coll in allreduce | barrier) configs+=("$coll 8 8,1048576") ;; esac
done
[ ${#configs[@]} -gt 0 ] || { echo "COLLS names no collective" >&2; exit 2; }
build_all perf/coll_bench.c
floor=$(machine_floor)

problems=()  # one line per failed, hung or wrong run, repeated at the end of the report
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
      launch "$impl" "$2" "$1" -s "$3" -i "$iterations" >"$out.raw" 2>"$out.err" || rc=$?
      if grep -q "WRONG RESULT" "$out.err"; then
        problems+=("$impl $1 on $2 ranks, round $r: $(grep -m1 'WRONG RESULT' "$out.err")")
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

# best.<impl>.<coll>.<n>: "size avg_us algbw busbw" of the round with the lowest latency per size
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
rows() {  # rows: "coll n size label" for every configuration and size, barrier as size 0
  local config coll n list s
  for config in "${configs[@]}"; do
    read -r coll n list <<<"$config"
    if [ "$coll" = barrier ]; then echo "$coll $n 0 -"; continue; fi
    for s in ${list//,/ }; do echo "$coll $n $s $(human "$s")"; done
  done
}
ranks_label() { echo "$1$([ "$1" -gt "$(nproc)" ] && echo " (oversubscribed)")"; }

echo "Collectives, best of $rounds alternating rounds of at most $iterations timed calls per size" \
     "($(date -u +%Y-%m-%d), $(nproc) cores, load average $load_before at start," \
     "$(cut -d' ' -f1-3 /proc/loadavg) at end, ${elapsed}s)"
echo "Implementations: ${impls[*]}. Benchmark: perf/coll_bench.c (MPI_FLOAT, MPI_SUM, root 0)."
echo "$floor"
echo
echo "Latency per call (us; OSU-style: mean over the timed calls, max over ranks). Ratio = better"
echo "peer latency / Weft latency: > 1 means Weft is faster."
echo
echo "| collective | ranks | size | Weft | Open MPI | MPICH | Weft vs better peer |"
echo "|---|---|---|---|---|---|---|"
while read -r coll n s label; do
  echo "| $coll | $(ranks_label "$n") | $label | $(cell weft "$coll" "$n" "$s" 2) | $(cell openmpi "$coll" "$n" "$s" 2)" \
       "| $(cell mpich "$coll" "$n" "$s" 2) | $(weft_ratio "$coll" "$n" "$s") |"
done < <(rows)
echo
echo "Bus bandwidth (GB/s, nccl-tests definition) from 16 KiB:"
echo
echo "| collective | ranks | size | Weft | Open MPI | MPICH |"
echo "|---|---|---|---|---|---|"
while read -r coll n s label; do
  [ "$s" -ge 16384 ] || continue
  echo "| $coll | $(ranks_label "$n") | $label | $(cell weft "$coll" "$n" "$s" 4) | $(cell openmpi "$coll" "$n" "$s" 4) | $(cell mpich "$coll" "$n" "$s" 4) |"
done < <(rows)
echo
if [ ${#problems[@]} -eq 0 ]; then
  echo "All runs completed with correct results."
else
  echo "Problems (figures from these runs were dropped):"
  echo
  for p in "${problems[@]}"; do echo "- $p"; done
fi
