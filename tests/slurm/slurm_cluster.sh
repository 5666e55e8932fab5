#!/usr/bin/env bash
# A throwaway Slurm cluster on this machine for tests: slurmctld and two slurmd's (simulated nodes
# n1 and n2, Debian's slurmd runs several per host), auth/none, configuration and state in a
# directory of its own, ports chosen by the caller. Slurm's PMIx plugin makes per-step
# directories under PMIxCliTmpDirBase that would collide between the two slurmd's, so each slurmd
# runs in a mount namespace of its own where a directory of its node is bound over that base
# (only there: nothing else of the file system, such as a build tree under /tmp, is hidden).
#   slurm_cluster.sh up DIR PORT_BASE     starts it; waits until both nodes are idle
#   slurm_cluster.sh down DIR             stops exactly the daemons `up` started (by pid)
set -euo pipefail

case "${1:-}" in
  up)
    dir=$2 port=$3
    mkdir -p "$dir/state"
    host=$(hostname)
    cat >"$dir/slurm.conf" <<CONF
ClusterName=weftci
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool-%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd-%n.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=n[1-2] NodeHostname=$host NodeAddr=127.0.0.1 Port=$((port + 2))-$((port + 3)) CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=10 State=UP OverSubscribe=FORCE:4
CONF
    mkdir -p "$dir/pmix"
    echo "PMIxCliTmpDirBase=$dir/pmix" >"$dir/mpi.conf"
    export SLURM_CONF=$dir/slurm.conf
    slurmctld -D -i -f "$SLURM_CONF" >"$dir/slurmctld.out" 2>&1 &
    echo $! >"$dir/pids"
    for node in n1 n2; do
      mkdir -p "$dir/spool-$node" "$dir/pmix-$node"
      unshare --mount --propagation private sh -c \
        'mount --bind "$0" "$3" && exec slurmd -D -f "$1" -N "$2"' \
        "$dir/pmix-$node" "$SLURM_CONF" "$node" "$dir/pmix" >"$dir/slurmd-$node.out" 2>&1 &
      echo $! >>"$dir/pids"
    done
    for _ in $(seq 200); do
      [ "$(sinfo -h -o '%t' 2>/dev/null | sort -u | tr -d '\n')" = idle ] && exit 0
      sleep 0.1
    done
    echo "slurm_cluster: nodes did not come up; see $dir/*.log" >&2
    exit 1 ;;
  down)
    dir=$2
    [ -f "$dir/pids" ] || exit 0
    pids=$(cat "$dir/pids")
    kill -TERM $pids 2>/dev/null || true
    for _ in $(seq 50); do
      alive=0
      for p in $pids; do kill -0 "$p" 2>/dev/null && [ "$(ps -o stat= -p "$p")" != Z ] && alive=1; done
      [ $alive -eq 0 ] && break
      sleep 0.1
    done
    kill -KILL $pids 2>/dev/null || true
    rm -f "$dir/pids" ;;
  *)
    echo "usage: $0 up DIR PORT_BASE | down DIR" >&2
    exit 2 ;;
esac
