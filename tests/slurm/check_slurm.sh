#!/usr/bin/env bash
# Weft under a real Slurm (Debian's slurmctld and two slurmd's on this machine, simulated nodes
# n1 and n2, made by slurm_cluster.sh and stopped afterwards): programs started directly by
# `srun --mpi=pmix`, the clear failure of `srun --mpi=none`, and weftrun inside `salloc` starting
# its daemons with srun. Needs root and Slurm's packages; exits 77 (skipped) with a message
# otherwise. Usage: check_slurm.sh BUILD_BIN CASE
set -u
bin=$1 case=$2
here=$(cd "$(dirname "$0")" && pwd)

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: the Slurm tests start slurmctld and slurmd, which needs root"
  exit 77
fi
for tool in slurmctld slurmd srun salloc sinfo unshare; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (scripts/weft.sh installs Slurm)"; exit 77; }
done

dir=$(mktemp -d -p /var/tmp weft-slurm.XXXXXX)
out=$(mktemp) err=$(mktemp)
cleanup() {
  "$here/slurm_cluster.sh" down "$dir"
  rm -rf "$dir" "$out" "$err"
}
trap cleanup EXIT
fail() {
  echo "FAIL [$case]: $*"; echo "--- stdout"; head -c 3000 "$out"; echo "--- stderr"; head -c 3000 "$err"
  echo "--- slurmd logs"; tail -n 5 "$dir"/slurmd-*.log 2>/dev/null
  exit 1
}
# Four ports for slurmctld and the slurmd's: below the kernel's ephemeral range (where the
# other tests' sockets take theirs), and none of them in use in any state right now.
free_ports() {
  local low base p used
  low=$(awk '{print $1}' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  used=$(ss -Htan 2>/dev/null | awk '{n = split($4, a, ":"); print a[n]}' | sort -u)
  for try in $(seq 50); do
    base=$((20000 + (($$ + try * 7919) % ((low - 20004) / 4)) * 4))
    for p in $base $((base + 1)) $((base + 2)) $((base + 3)); do
      grep -qx "$p" <<<"$used" && continue 2
    done
    echo "$base"
    return
  done
  echo 20000
}
"$here/slurm_cluster.sh" up "$dir" "$(free_ports)" || fail "the Slurm cluster did not start"
export SLURM_CONF=$dir/slurm.conf
export HOSTS_CHECK_VERBOSE=1

run() {  # run a command with a hard outer bound so nothing can hang the suite
  timeout -s KILL 120 "$@" >"$out" 2>"$err" </dev/null
  rc=$?
}
# "NAME COUNT" for each node, from hosts_check's verbose lines.
nodes_seen() { awk '/^rank [0-9]+ on /{print $4, $5}' "$out" | sort -u | tr -d '(' | tr '\n' ' '; }

case $case in
  srun_pmix)  # programs launched by Slurm itself wire up through Slurm's PMIx server
    run srun -N 2 -n 4 --mpi=pmix "$bin/hosts_check" any-name
    [ $rc -eq 0 ] || fail "hosts_check under srun --mpi=pmix exited $rc"
    grep -q "hosts_check: 4 ranks, ok" "$out" || fail "hosts_check did not pass"
    [ "$(nodes_seen)" = "n1 2 n2 2 " ] || fail "ranks per node: $(nodes_seen)"
    run srun -N 2 -n 4 --mpi=pmix "$bin/mpi_coll_allreduce"
    [ $rc -eq 0 ] || fail "allreduce under srun --mpi=pmix exited $rc" ;;
  srun_none)  # no PMIx server but 2 tasks: a clear failure, not two one-rank worlds
    run srun -N 1 -n 2 --mpi=none "$bin/mpi_ring"
    [ $rc -ne 0 ] || fail "srun --mpi=none ran two singletons"
    grep -q "MPI_Init failed: this process was started as one of 2 tasks (SLURM_STEP_NUM_TASKS=2).*srun --mpi=pmix" "$err" ||
      fail "no message naming srun --mpi=pmix" ;;
  weftrun_salloc)  # weftrun inside an allocation: its nodes and slots, daemons started by srun
    run salloc -N 2 -n 3 --quiet "$bin/weftrun" "$bin/hosts_check" any-name
    [ $rc -eq 0 ] || fail "weftrun in salloc exited $rc"
    grep -q "hosts_check: 3 ranks, ok" "$out" || fail "hosts_check did not pass"
    [ "$(nodes_seen)" = "n1 2 n2 1 " ] || fail "ranks per node: $(nodes_seen)"
    run salloc -N 2 -n 4 --quiet "$bin/weftrun" "$bin/failing_rank" segv
    [ $rc -eq 139 ] || fail "a rank killed on n2: exit $rc, expected 139"
    grep -qE "^weftrun: rank 3 \(pid [0-9]+\) killed by SIGSEGV \(Segmentation fault\) on n2; ending the job" "$err" ||
      fail "the failure does not name rank 3 on n2" ;;
  *) echo "unknown case $case"; exit 2 ;;
esac
# Nothing of the jobs may be left: only the Slurm daemons this test started run from its files.
sleep 0.3
left=$(pgrep -f "$bin/(hosts_check|mpi_|failing_rank|weftd)" | tr '\n' ' ')
[ -z "$left" ] || fail "processes left: $left"
echo "PASS [$case]"
