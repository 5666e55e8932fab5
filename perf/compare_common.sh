# Sourced by the perf/compare_*.sh scripts: builds one benchmark with Weft, Debian's Open MPI and
# MPICH, launches it with each, states the machine's floor, and formats ratios. Callers set
# `work` (a scratch directory) and optionally `run_timeout` (seconds one launch may take) before
# sourcing, and then call build_all SOURCE.
# Env: WEFT_BUILD (build tree, default build), WEFT_MPICC (default $WEFT_BUILD/bin/mpicc),
#      WEFT_RUN (launcher, default $WEFT_BUILD/bin/weftrun).
build=${WEFT_BUILD:-build}
weft_cc=${WEFT_MPICC:-$build/bin/mpicc}
weft_run=${WEFT_RUN:-$build/bin/weftrun}

# Only loopback traffic: UCX (Weft, MPICH's ch4:ucx, Open MPI's pml ucx), libfabric, Open MPI's
# TCP BTL and its runtime's out-of-band channel, and MPICH's Hydra (-iface lo in launch).
export UCX_NET_DEVICES=lo FI_TCP_IFACE=lo FI_SOCKETS_IFACE=lo UCX_WARN_UNUSED_ENV_VARS=n
export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo HYDRA_IFACE=lo

impls=()
note() { echo "# $*" >&2; }

# build_one NAME COMPILER SOURCE: compile the benchmark into $work/NAME, or say why NAME is
# skipped.
build_one() {
  if ! command -v "$2" >/dev/null; then
    note "$1: compiler $2 not found, skipped"
  elif "$2" -O2 -o "$work/$1" "$3" 2>"$work/$1.cc"; then
    impls+=("$1")
  else
    note "$1: $2 failed to build $3, skipped:"; cat "$work/$1.cc" >&2
  fi
}

# build_all SOURCE: every implementation installed here; fails when there is none.
build_all() {
  if [ -x "$weft_run" ]; then build_one weft "$weft_cc" "$1"; else note "weft: launcher $weft_run not found, skipped"; fi
  if command -v mpirun.openmpi >/dev/null; then build_one openmpi mpicc.openmpi "$1"
  else note "openmpi: not installed (apt-get install openmpi-bin libopenmpi-dev), skipped"; fi
  if command -v mpiexec.mpich >/dev/null; then build_one mpich mpicc.mpich "$1"
  else note "mpich: not installed (apt-get install mpich libmpich-dev), skipped"; fi
  [ ${#impls[@]} -gt 0 ] || { note "nothing to compare"; return 1; }
}

# launch IMPL NRANKS ARGS...: run IMPL's build of the benchmark on NRANKS ranks; with
# `run_timeout` set, a launch that takes longer is killed (exit status 124 or 137).
launch() {
  local impl=$1 n=$2 limit=()
  shift 2
  [ -n "${run_timeout:-}" ] && limit=(timeout -k 10 "$run_timeout")
  case $impl in
    weft) "${limit[@]}" "$weft_run" -n "$n" "$work/weft" "$@" ;;
    openmpi) "${limit[@]}" mpirun.openmpi --allow-run-as-root --oversubscribe -n "$n" "$work/openmpi" "$@" ;;
    mpich) "${limit[@]}" mpiexec.mpich -iface lo -n "$n" "$work/mpich" "$@" ;;
  esac
}

# machine_floor: one line with the machine's floor for intra-node messaging, measured now by
# perf/cacheline_floor.c (built with cc), or why there is none.
machine_floor() {
  if ! cc -O2 -pthread -o "$work/cacheline_floor" perf/cacheline_floor.c 2>"$work/floor.cc"; then
    echo "Machine floor: not measured (perf/cacheline_floor.c did not build: $(head -1 "$work/floor.cc"))"
    return
  fi
  "$work/cacheline_floor" -r 5 | awk '
    $1 == "pingpong_half_rtt_ns" { ping = $2 } $1 == "memcpy" { bw[$2] = $3 }
    $1 == "cross_process_read" { cma = $3 } $1 == "yield_switch_ns" { yield = $2 }
    END { printf "Machine floor (perf/cacheline_floor.c): cache-line transfer between two cores %s ns (half a ping-pong round trip); memcpy %s GB/s at 64 KiB, %s GB/s at 1 MiB, %s GB/s at 4 MiB; process_vm_readv %s GB/s at 1 MiB; one core passed between processes (sched_yield, 4 on a cpu) %s ns\n", ping, bw[65536], bw[1048576], bw[4194304], cma == "" ? "-" : cma, yield == "" ? "-" : yield }'
}

# ratio A B: A / B as "1.23x", or "-" when either is missing.
ratio() { if [ -n "$1" ] && [ -n "$2" ]; then awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; else echo "-"; fi; }
