#!/usr/bin/env bash
# Multi-host jobs on simulated hosts: network namespaces this test makes (netns_hosts.sh), each
# with its own hostname, weftd started in them by the launch agent `ip netns exec`. Each case
# checks the job's exit code and message, and that afterwards no process is left in any of the
# namespaces, no session directory and no new /dev/shm file; the namespaces are then removed.
# Needs root (network namespaces); exits 77 (skipped) with a message otherwise.
# Usage: check_multihost.sh BUILD_BIN CASE
set -u
bin=$1 case=$2
here=$(cd "$(dirname "$0")" && pwd)
hosts=$here/netns_hosts.sh
prefix=wm$$
# A /24 of 10.213.0.0/16 per run, so that concurrent runs never share addresses.
subnet=10.213.$(($$ % 250 + 1))

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: multi-host tests make network namespaces, which needs root"
  exit 77
fi
if ! ip netns add "$prefix-probe" 2>/dev/null; then
  echo "SKIP: cannot make network namespaces here (ip netns add failed)"
  exit 77
fi
ip netns del "$prefix-probe"

out=$(mktemp) err=$(mktemp)
base=$(mktemp -d)
export TMPDIR=$base
cleanup() {
  "$hosts" down "$prefix"
  rm -rf "$base"
  rm -f "$out" "$err"
}
trap cleanup EXIT
fail() { echo "FAIL [$case]: $*"; echo "--- stdout"; head -c 3000 "$out"; echo "--- stderr"; head -c 3000 "$err"; exit 1; }
. "$(dirname "$0")/../shm_left.sh"
shm_before=$(ls /dev/shm | sort)

agent=$("$hosts" agent "$prefix")
# UCX sees the namespaces as one machine and would pick shared memory between them, whose
# wake-up signal cannot cross network namespaces (real hosts do not have this): TCP only here.
# And no loopback-only device list: these hosts talk over their eth0.
unset UCX_NET_DEVICES
export UCX_TLS=tcp,self

# weftrun on host h1 with a hard outer bound, so a launcher bug cannot hang the suite.
weftrun() {
  timeout -s KILL 60 "$hosts" run "$prefix" h1 "$bin/weftrun" --launch-agent "$agent" "$@" \
    >"$out" 2>"$err" </dev/null
  rc=$?
}
expect() {  # expect CODE [REGEX]: exit code and a line of stderr
  [ "$rc" -eq "$1" ] || fail "exit code $rc, expected $1"
  [ -z "${2:-}" ] || grep -qE "$2" "$err" || fail "stderr lacks /$2/"
}
# The pids of weftd in namespace HOST.
weftd_in() { for p in $(ip netns pids "$prefix-$1"); do [ "$(cat /proc/$p/comm 2>/dev/null)" = weftd ] && echo "$p"; done; }

case $case in
  two_hosts)  # 1-4 ranks on each of 2 hosts: names, shared split, ring, 1 MiB allreduce
    "$hosts" up "$prefix" 2 "$subnet"
    for per in 1 2 4; do
      weftrun --host h1:$per,h2:$per "$bin/hosts_check"
      expect 0
      grep -q "hosts_check: $((2 * per)) ranks, ok" "$out" || fail "hosts_check at $per per host"
    done ;;
  three_hosts)  # 3 hosts, uneven: 1, 2 and 3 ranks; and round-robin placement
    "$hosts" up "$prefix" 3 "$subnet"
    weftrun --host h1:1,h2:2,h3:3 "$bin/hosts_check"
    expect 0
    grep -q "hosts_check: 6 ranks, ok" "$out" || fail "hosts_check on h1:1,h2:2,h3:3"
    weftrun -n 5 --host h1:2,h2:2,h3:2 --map-by node -l sh -c 'echo "$(hostname) $WEFT_RANK"'
    expect 0
    [ "$(sort "$out" | tr '\n' ' ')" = "[0] h1 0 [1] h2 1 [2] h3 2 [3] h1 3 [4] h2 4 " ] ||
      fail "round-robin placement: $(sort "$out" | tr '\n' ' ')" ;;
  collectives)  # point-to-point and every collective's test program across 2 hosts
    "$hosts" up "$prefix" 2 "$subnet"
    for prog in ring anysource probe coll_barrier coll_bcast coll_reduce coll_allreduce \
                coll_gather coll_scatter coll_allgather coll_reduce_scatter coll_alltoall \
                coll_scan coll_dtypes coll_overlap; do
      weftrun -n 3 --host h1:2,h2:2 "$bin/mpi_$prog"
      expect 0
    done ;;
  gpu)  # device buffers (the fake CUDA driver) across 2 hosts: CUDA IPC within, UCX between
    [ -n "${WEFT_FAKE_CUDA_DRIVER_DIR:-}" ] || fail "WEFT_FAKE_CUDA_DRIVER_DIR is not set"
    "$hosts" up "$prefix" 2 "$subnet"
    export LD_LIBRARY_PATH=$WEFT_FAKE_CUDA_DRIVER_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    for prog in gpu_pt2pt gpu_coll_reduce gpu_coll_move gpu_rma; do
      weftrun -n 4 --host h1:2,h2:2 --timeout 40 "$bin/${prog}_fake"
      expect 0
      grep -q "$prog: ok (4 ranks)" "$out" || fail "$prog across hosts"
    done ;;
  ofi)  # the libfabric transport (tcp;ofi_rxm over eth0) between hosts, shared memory within
    # Opt-in: one fresh-clone CI run saw a job of this case hang (killed by the 60 s bound with
    # nothing printed), which is not understood yet; --timeout makes the next one report.
    if [ -z "${WEFT_TEST_OFI_MULTIHOST:-}" ]; then
      echo "SKIP [ofi]: set WEFT_TEST_OFI_MULTIHOST=1 to run it (a hang seen once is open)"
      exit 77
    fi
    "$hosts" up "$prefix" 2 "$subnet"
    for prog in ring anysource probe mprobe ssend truncate coll_allreduce coll_bcast \
                coll_alltoall coll_overlap; do
      weftrun -n 4 --host h1:2,h2:2 --transport ofi --timeout 40 "$bin/mpi_$prog"
      expect 0
    done ;;
  hierarchical)  # node-aware collectives, the nodes found from the launcher's host names
    "$hosts" up "$prefix" 2 "$subnet"
    forced=()
    for coll in barrier bcast reduce allreduce allgather; do
      forced+=(--set "${coll}_algorithm=hierarchical")
    done
    # coll_nodes checks by MPI_T counters that the two-level algorithms ran wherever a
    # communicator spans both hosts (uneven: 3 and 2 ranks), and their results.
    weftrun -n 5 --host h1:3,h2:2 "${forced[@]}" "$bin/mpi_coll_nodes"
    expect 0
    grep -q "coll_nodes: ok on 5 ranks (forced)" "$out" || fail "coll_nodes across two hosts"
    for prog in coll_allreduce coll_bcast; do
      weftrun -n 4 --host h1:2,h2:2 "${forced[@]}" "$bin/mpi_$prog"
      expect 0
    done ;;
  dynamic)  # MPI_Comm_spawn and the name service from ranks on the other host (weftd forwards)
    "$hosts" up "$prefix" 2 "$subnet"
    # spawn's first call is rooted at the last rank: on h2, whose weftd forwards it to weftrun.
    weftrun --host h1:1,h2:1 "$bin/mpi_spawn"
    expect 0
    grep -q "spawn: ok" "$out" || fail "spawn from a rank on h2"
    # The client is on h2: its lookups and publishes of the port's names go through its weftd.
    weftrun --host h1:1,h2:1 -n 1 "$bin/mpi_ports" server : -n 1 "$bin/mpi_ports" client
    expect 0
    grep -q "ports: ok" "$out" || fail "accept/connect with the client on h2" ;;
  rma)  # one-sided communication between hosts (transport RMA and messages), every sync mode
    "$hosts" up "$prefix" 2 "$subnet"
    for prog in rma_basic rma_pscw rma_dtypes rma_errors rma_objects rma_shared; do
      weftrun -n 3 --host h1:2,h2:2 "$bin/mpi_$prog"
      expect 0
    done
    # Contiguous puts and gets to the other host went through UCX's RMA on every rank.
    weftrun -n 2 --host h1:1,h2:1 -x LD_PRELOAD="$bin/../lib/libucx_rma_counter.so" \
      "$bin/mpi_rma_basic"
    expect 0
    [ "$(grep -c '^ucx_rma_counter: puts=[1-9][0-9]* gets=[1-9]' "$err")" -eq 2 ] ||
      fail "a rank made no UCX put or get to the other host"
    weftrun -n 4 --host h1:2,h2:2 "$bin/mpi_rma_passive"  # its target computes outside MPI
    expect 0 ;;
  rank_killed)  # a rank on the remote host dies: the job ends naming rank, signal and host
    "$hosts" up "$prefix" 2 "$subnet"
    weftrun -n 4 --host h1:2,h2:2 "$bin/failing_rank" segv
    expect 139 '^weftrun: rank 3 \(pid [0-9]+\) killed by SIGSEGV \(Segmentation fault\) on h2; ending the job' ;;
  weftd_killed)  # the remote daemon dies mid-job: the job ends within seconds naming the host
    "$hosts" up "$prefix" 2 "$subnet"
    ( sleep 1.5; for p in $(weftd_in h2); do echo "killing weftd $p" >&2; kill -KILL "$p"; done ) &
    start=$(date +%s)
    weftrun -n 4 --host h1:2,h2:2 "$bin/failing_rank" hang
    wait
    expect 1 '^weftrun: host h2: lost the connection to its weftd .*; ending the job'
    [ $(( $(date +%s) - start )) -le 10 ] || fail "took more than 10 s to end"
    # A daemon killed with SIGKILL cannot remove its session directory; the next job that
    # starts a daemon on that host does.
    weftrun -n 2 --host h1:1,h2:1 "$bin/hosts_check"
    expect 0 ;;
  bindings)  # --report-bindings: weftd's lines reach weftrun's stderr, one per rank and host
    "$hosts" up "$prefix" 2 "$subnet"
    weftrun -n 2 --host h1:1,h2:1 --report-bindings --bind-to core sh -c true
    expect 0 '^weftrun: rank 0 on h1 bound to package [0-9]+ core [0-9]+ \(PUs? [0-9,-]+\)$'
    grep -qE '^weftrun: rank 1 on h2 bound to package [0-9]+ core [0-9]+ \(PUs? [0-9,-]+\)$' "$err" ||
      fail "no binding line from h2's weftd" ;;
  timeout_report)  # the hang report reaches ranks on every host and names the culprit's host
    "$hosts" up "$prefix" 2 "$subnet"
    weftrun --timeout 3 -n 4 --host h1:2,h2:2 "$bin/failing_rank" stuck
    expect 124 '^weftrun:   ranks 0-2: in MPI_Allreduce #2 on MPI_COMM_WORLD$'
    grep -qE '^weftrun:   rank 3 on h2: in MPI_Recv\(source=0, tag=7, 4 bytes\) on MPI_COMM_WORLD$' "$err" ||
      fail "rank 3 on h2 not reported"
    grep -qE '^weftrun: likely culprit: rank 3 on h2' "$err" || fail "no culprit named" ;;
  stdin)  # rank 0 on another host than weftrun's still gets weftrun's stdin, all of it
    "$hosts" up "$prefix" 2 "$subnet"
    seq 1 20000 | timeout -s KILL 60 "$hosts" run "$prefix" h1 "$bin/weftrun" --launch-agent "$agent" \
      -l --host h2:1,h1:1 "$bin/failing_rank" stdin >"$out" 2>"$err"
    rc=$?
    expect 0
    grep -q '^\[0\] rank 0 read 20000 lines$' "$out" || fail "rank 0 on h2 did not get stdin" ;;
  unreachable)  # a host that cannot be reached: the agent's own error, one line, no hang
    "$hosts" up "$prefix" 1 "$subnet"
    weftrun -n 2 --host h1:1,h9:1 "$bin/hosts_check"
    expect 1 '^weftrun: host h9: could not start weftd \(.*network namespace.*h9.*\); ending the job' ;;
  sigterm)  # weftrun itself gets SIGTERM: every rank on every host ends, exit 143
    "$hosts" up "$prefix" 2 "$subnet"
    timeout -s KILL 60 "$hosts" run "$prefix" h1 "$bin/weftrun" --launch-agent "$agent" -n 4 \
      --host h1:2,h2:2 "$bin/failing_rank" hang >"$out" 2>"$err" </dev/null &
    for _ in $(seq 100); do [ "$(grep -c '^pid ' "$out")" -eq 4 ] && break; sleep 0.1; done
    [ "$(grep -c '^pid ' "$out")" -eq 4 ] || fail "the 4 ranks did not start"
    for p in $(ip netns pids "$prefix-h1"); do
      [ "$(cat /proc/$p/comm 2>/dev/null)" = weftrun ] && kill -TERM "$p"
    done
    wait $!; rc=$?
    expect 143 '^weftrun: received SIGTERM; ending the job' ;;
  secret)  # a connection that does not prove the job's secret is dropped; the job goes on
    "$hosts" up "$prefix" 2 "$subnet"
    port=$((20000 + $$ % 20000))
    # A hello for node 1 (type 2: i32 node, then a 64-byte proof) that is not sha256(secret+nonce).
    intruder="sleep 0.5; exec 3<>/dev/tcp/$subnet.1/$port && printf '\x49\x00\x00\x00\x02\x01\x00\x00\x00\x40\x00\x00\x00%s' \$(printf 'a%.0s' \$(seq 64)) >&3; sleep 1"
    "$hosts" run "$prefix" h2 bash -c "$intruder" 2>/dev/null &
    weftrun -n 2 --host h1:1,h2:1 --launcher-address "$subnet.1:$port" sh -c 'sleep 2; echo ran'
    wait
    expect 0 "^weftrun: dropped a connection from $subnet.2:[0-9]+: (it did not prove the job's secret|node 1 is not waiting for a daemon)"
    [ "$(grep -c '^ran$' "$out")" -eq 2 ] || fail "the job did not run both ranks" ;;
  *) echo "unknown case $case"; exit 2 ;;
esac

# Nothing may survive the job: no process in any namespace, no session directory, no shm file.
sleep 0.3
for ns in $(ip netns list | awk '{print $1}' | grep -E "^$prefix-"); do
  left=$(ip netns pids "$ns" | tr '\n' ' ')
  [ -z "$left" ] || fail "processes left in $ns: $left ($(for p in $left; do cat /proc/$p/comm; done | tr '\n' ' '))"
done
left=$(ls "$base")
[ -z "$left" ] || fail "left in TMPDIR: $left (owner: $(cat "$base"/*/owner 2>/dev/null | tr '\n' ' '))"
new_shm=$(shm_left "$shm_before")
[ -z "$new_shm" ] || fail "left in /dev/shm: $new_shm"
echo "PASS [$case]"
