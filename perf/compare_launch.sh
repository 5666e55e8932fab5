#!/usr/bin/env bash
# Launch time: wall time of `LAUNCHER -n N ./launch_init` (MPI_Init, one barrier, MPI_Finalize)
# for N = 1..64 with weftrun, Debian's Open MPI (mpirun.openmpi) and MPICH (mpiexec.mpich),
# alternating, best of ROUNDS; then, as root, weftrun across 2 and 3 simulated hosts (network
# namespaces of tests/multihost) and a simulated large launch: H weftd's (H = 4..64) as
# namespace-free "hosts" on this machine (the agent is `env`, {host} only naming it), one rank
# each, showing how start-up grows with hosts.
# Usage: perf/compare_launch.sh [ROUNDS]       Env: WEFT_BUILD (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
case $rounds in '' | *[!0-9]* | 0) echo "usage: perf/compare_launch.sh [ROUNDS>0]" >&2; exit 2 ;; esac
build=${WEFT_BUILD:-build}
counts="1 2 4 8 16 32 64"
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -n "${prefix:-}" ] && tests/multihost/netns_hosts.sh down "$prefix"' EXIT
export UCX_NET_DEVICES=lo FI_TCP_IFACE=lo FI_SOCKETS_IFACE=lo UCX_WARN_UNUSED_ENV_VARS=n
export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo HYDRA_IFACE=lo
note() { echo "# $*" >&2; }

impls=()
build_one() {  # build_one NAME COMPILER
  if command -v "$2" >/dev/null && "$2" -O2 -o "$work/$1" perf/launch_init.c 2>"$work/$1.cc"; then
    impls+=("$1")
  else
    note "$1: $2 missing or failed to build launch_init, skipped"
  fi
}
build_one weft "$build/bin/mpicc"
build_one openmpi mpicc.openmpi
build_one mpich mpicc.mpich

launcher() {  # launcher IMPL N: sets cmd to the command that launches N ranks
  case $1 in
    weft) cmd=("$build/bin/weftrun" -n "$2" "$work/weft") ;;
    openmpi) cmd=(mpirun.openmpi --allow-run-as-root --oversubscribe -n "$2" "$work/openmpi") ;;
    mpich) cmd=(mpiexec.mpich -iface lo -n "$2" "$work/mpich") ;;
  esac
}
# ms COMMAND...: the wall time of one run of COMMAND in ms, or "fail"
ms() {
  local start end
  start=$(date +%s%N)
  if timeout -k 5 120 "$@" >/dev/null 2>"$work/err"; then
    end=$(date +%s%N)
    echo $(((end - start) / 1000000))
  else
    echo fail
  fi
}
best() { tr ' ' '\n' | { grep -E '^[0-9]+$' || true; } | sort -n | head -1; }

declare -A times
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq "$rounds"); do
  for n in $counts; do
    for impl in "${impls[@]}"; do
      launcher "$impl" "$n"
      times[$impl.$n]+=" $(ms "${cmd[@]}")"
    done
  done
done
echo "Launch time in ms, best of $rounds alternating rounds ($(date -u +%Y-%m-%d), $(nproc) cores," \
     "load average $load_before at start): \`LAUNCHER -n N perf/launch_init\`"
echo "(MPI_Init, MPI_Barrier, MPI_Finalize). Ratio = Weft / faster peer: < 1 means Weft is faster."
echo
echo "| ranks | Weft | Open MPI | MPICH | Weft / faster peer |"
echo "|---|---|---|---|---|"
for n in $counts; do
  w=$(echo "${times[weft.$n]:-}" | best); o=$(echo "${times[openmpi.$n]:-}" | best)
  m=$(echo "${times[mpich.$n]:-}" | best)
  peer=$(printf '%s\n%s\n' "$o" "$m" | { grep -E '^[0-9]+$' || true; } | sort -n | head -1)
  ratio=-
  [ -n "$w" ] && [ -n "$peer" ] && ratio=$(awk -v a="$w" -v b="$peer" 'BEGIN { printf "%.2f", a / b }')
  echo "| $n | ${w:--} | ${o:--} | ${m:--} | $ratio |"
done

[ "$(id -u)" -eq 0 ] || { note "not root: no multi-host figures"; exit 0; }
# Across simulated hosts: network namespaces with their own hostnames, weftd started by ip netns.
prefix=wb$$
tests/multihost/netns_hosts.sh up "$prefix" 3 "10.214.$(($$ % 250 + 1))"
agent=$(tests/multihost/netns_hosts.sh agent "$prefix")
echo
echo "Across simulated hosts (network namespaces; weftrun on h1, weftd on the others), best of $rounds:"
echo
echo "| hosts | ranks per host | Weft ms |"
echo "|---|---|---|"
for config in "2 1" "2 4" "3 1" "3 4"; do
  set -- $config
  list=$(for i in $(seq "$1"); do printf 'h%d:%d,' "$i" "$2"; done); list=${list%,}
  t=""
  for r in $(seq "$rounds"); do
    t+=" $(ms env -u UCX_NET_DEVICES UCX_TLS=tcp,self tests/multihost/netns_hosts.sh run "$prefix" h1 \
      "$PWD/$build/bin/weftrun" --launch-agent "$agent" --host "$list" "$work/weft")"
  done
  echo "| $1 | $2 | $(echo "$t" | best) |"
done
# Many daemons: H "hosts" that are all this machine under other names, weftd started without a
# remote shell (the agent is `env`, {host} only naming it), one rank each: the cost per daemon on weftrun's side.
echo
echo "Many daemons on this machine (one rank each; flat start, no fan-out tree), best of $rounds:"
echo
echo "| weftd's | Weft ms |"
echo "|---|---|"
for h in 4 16 32 64; do
  list=$(for i in $(seq "$h"); do printf 'sim%d,' "$i"; done); list=${list%,}
  t=""
  for r in $(seq "$rounds"); do
    t+=" $(ms "$build/bin/weftrun" --launch-agent 'env WEFT_SIMULATED_HOST={host}' --launcher-address 127.0.0.1 --host "$list" "$work/weft")"
  done
  echo "| $h | $(echo "$t" | best) |"
done
