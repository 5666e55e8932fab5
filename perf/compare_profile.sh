#!/usr/bin/env bash
# What the profiler costs: perf/p2p_bench.c's ping-pong latency on 2 ranks under Weft without
# the profiler (weftrun's default: nothing loaded, the library's own path), with
# WEFT_PROFILE=summary and with summary,trace, and under Debian's Open MPI and MPICH for scale,
# alternating for ROUNDS rounds; prints the best and the median per size and the profiler's
# overhead on the best figures.
# Usage: perf/compare_profile.sh [ROUNDS [MAX_BYTES]]   (default 9 rounds, sizes up to 1 KiB)
# Env: WEFT_BUILD, WEFT_MPICC, WEFT_RUN as for the other perf/compare_*.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-9}
max_bytes=${2:-1024}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run_timeout=120
source perf/compare_common.sh
build_all perf/p2p_bench.c
modes=()
for impl in "${impls[@]}"; do
  if [ "$impl" = weft ]; then modes+=(weft weft-summary weft-summary,trace); else modes+=("$impl"); fi
done

# run MODE: one launch; appends "size latency" lines to $work/lat.MODE
run() {
  local out=$work/out
  case $1 in
    weft-*) WEFT_PROFILE=${1#weft-} WEFT_PROFILE_HTML=$work/profile.html \
              WEFT_PROFILE_TRACE=$work/trace.json launch weft 2 -m "$max_bytes" >"$out" 2>/dev/null ;;
    *) launch "$1" 2 -m "$max_bytes" >"$out" 2>/dev/null ;;
  esac || { note "$1: a round failed"; return 0; }
  awk '$1 !~ /^#/ && NF == 3 { print $1, $2 }' "$out" >>"$work/lat.$1"
}
for _ in $(seq "$rounds"); do
  for mode in "${modes[@]}"; do run "$mode"; done
done

stat() {  # stat MODE SIZE best|median
  [ -s "$work/lat.$1" ] || { echo "-"; return; }
  awk -v s="$2" '$1 == s { print $2 }' "$work/lat.$1" | sort -g |
    awk -v w="$3" '{ v[NR] = $1 } END { if (NR == 0) print "-"; else print (w == "best" ? v[1] : v[int((NR + 1) / 2)]) }'
}
overhead() {  # overhead A B: how much longer A is than B, in percent
  awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%+.1f%%", 100 * (a - b) / b }'
}
echo "Ping-pong latency on 2 ranks (us, half a round trip): best (median) of $rounds alternating rounds"
echo "($(date -u +%Y-%m-%d), $(nproc) CPUs; a shared machine: compare the bests)"
echo
header="| size B |"; rule="|---|"
for mode in "${modes[@]}"; do header+=" $mode |"; rule+="---|"; done
echo "$header summary overhead | summary,trace overhead |"
echo "$rule---|---|"
for size in $(awk '{ print $1 }' "$work"/lat.* | sort -nu); do
  row="| $size |"
  for mode in "${modes[@]}"; do row+=" $(stat "$mode" "$size" best) ($(stat "$mode" "$size" median)) |"; done
  base=$(stat weft "$size" best)
  row+=" $(overhead "$(stat weft-summary "$size" best)" "$base") |"
  row+=" $(overhead "$(stat weft-summary,trace "$size" best)" "$base") |"
  echo "$row"
done
