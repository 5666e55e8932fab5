#!/usr/bin/env bash
# What binding costs or gains: perf/p2p_bench.c on 2 ranks with --bind-to core and with
# --bind-to none, and perf/coll_bench.c on 8 ranks (oversubscribed on small machines) with the
# default (auto, which is none there) and with core:overload-allowed, alternating the modes for
# ROUNDS rounds; prints the best and the median of each figure per mode.
# Usage: perf/compare_binding.sh [ROUNDS]   Env: WEFT_BUILD (build tree, default build).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
build=${WEFT_BUILD:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export UCX_NET_DEVICES=lo UCX_WARN_UNUSED_ENV_VARS=n
"$build/bin/mpicc" -O2 -o "$work/p2p" perf/p2p_bench.c
"$build/bin/mpicc" -O2 -o "$work/coll" perf/coll_bench.c

p2p() {  # p2p MODE: latency at 8 B and bandwidth at 64 KiB-4 MiB
  "$build/bin/weftrun" -n 2 --bind-to "$1" "$work/p2p" | awk -v w="$work" -v m="$1" '
    $1 == 8 { print $2 >> (w "/lat8." m) }
    $1 >= 65536 { print $3 >> (w "/bw" $1 "." m) }'
}
coll() {  # coll MODE: 8-rank barrier and 8 B / 64 KiB allreduce, microseconds per call
  local bind=(); [ "$1" = auto ] || bind=(--bind-to "$1")
  "$build/bin/weftrun" -n 8 "${bind[@]}" "$work/coll" barrier -i 200 | awk -v w="$work" -v m="$1" \
    '$1 !~ /^#/ { print $2 >> (w "/barrier." m) }'
  "$build/bin/weftrun" -n 8 "${bind[@]}" "$work/coll" allreduce -s 8,64K -i 200 |
    awk -v w="$work" -v m="$1" '$1 !~ /^#/ { print $2 >> (w "/allreduce" $1 "." m) }'
}
for _ in $(seq "$rounds"); do
  for mode in core none; do p2p "$mode"; done
  for mode in auto core:overload-allowed; do coll "$mode"; done
done

stats() {  # stats FILE lower|higher: best and median
  sort -g "$1" | awk -v d="$2" '{ v[NR] = $1 } END {
    best = d == "lower" ? v[1] : v[NR]; printf "%s (median %s)", best, v[int((NR + 1) / 2)] }'
}
echo "2 ranks, best of $rounds alternating rounds ($(date -u +%Y-%m-%d), $(nproc) CPUs)"
echo "| measure | --bind-to core | --bind-to none |"
echo "|---|---|---|"
echo "| latency 8 B (us) | $(stats "$work/lat8.core" lower) | $(stats "$work/lat8.none" lower) |"
for s in 65536 262144 1048576 4194304; do
  echo "| bandwidth $((s / 1024)) KiB (MB/s) | $(stats "$work/bw$s.core" higher) | $(stats "$work/bw$s.none" higher) |"
done
echo
echo "8 ranks, microseconds per call"
echo "| measure | auto (none here) | core:overload-allowed |"
echo "|---|---|---|"
for m in barrier allreduce8 allreduce65536; do
  echo "| $m | $(stats "$work/$m.auto" lower) | $(stats "$work/$m.core:overload-allowed" lower) |"
done
