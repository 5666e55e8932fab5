#!/usr/bin/env bash
# Builds perf/io_bench.c with Weft, Debian's Open MPI and MPICH (ROMIO), runs them at 1, 2 and 4
# ranks (RANKS to change) in alternation for ROUNDS rounds, keeps each one's best collective
# write and read bandwidth of the 3-D subarray array (MIB MiB, default 64), and prints a
# markdown table with Weft's ratio to the better peer (> 1: Weft is better) and the machine's
# limit (one process, one write(2)/read(2) of the same bytes). The files go to a private
# temporary directory this script makes and removes. A run that fails or hangs (RUN_TIMEOUT
# seconds, default 180) is reported and only its missing figures are left out. HINTS (e.g.
# "cb_nodes=2 striping_unit=4096") are given to MPI_File_open by every implementation.
# Usage: perf/compare_io.sh [ROUNDS]   (env as in perf/compare_common.sh, plus RANKS, MIB, HINTS)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
ranks=${RANKS:-1 2 4}
mib=${MIB:-64}
read -r -a hints <<<"${HINTS:-}"
run_timeout=${RUN_TIMEOUT:-180}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/files"
. perf/compare_common.sh
build_all perf/io_bench.c

for r in $(seq "$rounds"); do
  for n in $ranks; do
    for impl in "${impls[@]}"; do
      if ! launch "$impl" "$n" "$work/files" "$mib" "${hints[@]}" >>"$work/$impl.out" \
        2>"$work/$impl.err.$r.$n"; then
        note "$impl: round $r at $n ranks failed (figures it printed are kept):"; tail -3 "$work/$impl.err.$r.$n" >&2
      fi
    done
  done
done

# best.<impl>: "measure nranks MB/s", the highest over all rounds
for impl in "${impls[@]}"; do
  awk 'NF == 3 && $1 !~ /^#/ { k = $1 " " $2; if (!(k in v) || $3 + 0 > v[k] + 0) v[k] = $3 }
    END { for (k in v) print k, v[k] }' "$work/$impl.out" | sort >"$work/best.$impl"
done
cell() { [ -s "$work/best.$1" ] && awk -v m="$2" -v n="$3" '$1 == m && $2 == n { print $3 }' "$work/best.$1"; }
# The limit: the best single write/read seen by any implementation's run.
limit() { cat "$work"/best.* | awk -v m="$1" -v n="$2" '$1 == m && $2 == n && $3 + 0 > b { b = $3 + 0 } END { if (b) print b }'; }

echo "Collective MPI-IO of a ${mib} MiB 3-D array of doubles (subarray views, write_all/read_all${HINTS:+, hints $HINTS}), MB/s, best of $rounds alternating rounds ($(date -u +%Y-%m-%d), $(nproc) cores, files in $(df -T "$work" | awk 'NR == 2 { print $2 }'))"
echo
echo "| call | ranks | Weft | Open MPI | MPICH | Weft vs better peer | limit (1 write/read) |"
echo "|---|---|---|---|---|---|---|"
for m in write_all read_all; do
  for n in $ranks; do
    w=$(cell weft $m "$n"); o=$(cell openmpi $m "$n"); p=$(cell mpich $m "$n")
    best=$(printf '%s\n' $o $p | awk 'NF && $1 + 0 > b { b = $1 + 0 } END { if (b) print b }')
    echo "| $m | $n | ${w:--} | ${o:--} | ${p:--} | $(ratio "$w" "$best") | $(limit "limit_${m%_all}" "$n") |"
  done
done
