#!/usr/bin/env bash
# A program started by a launcher that says it has several tasks but offers no PMIx server (as
# srun --mpi=none does) must fail in MPI_Init naming the fix, not run as N one-rank worlds; in a
# batch script (only SLURM_NTASKS) it still runs as a singleton. Usage: check_singleton_refused.sh PROG
set -u
prog=$1
err=$(mktemp); trap 'rm -f "$err"' EXIT
env -u PMIX_NAMESPACE SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=1 SLURM_NTASKS=2 "$prog" >/dev/null 2>"$err"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: exit code $rc under srun --mpi=none's environment, expected 1"; cat "$err"; exit 1; }
grep -q 'MPI_Init failed: this process was started as one of 2 tasks (SLURM_STEP_NUM_TASKS=2).*srun --mpi=pmix' "$err" ||
  { echo "FAIL: message does not name the task count and the fix:"; cat "$err"; exit 1; }
env -u PMIX_NAMESPACE SLURM_NTASKS=4 SLURM_PROCID=0 "$prog" >/dev/null 2>"$err" ||
  { echo "FAIL: a singleton inside a batch allocation did not run:"; cat "$err"; exit 1; }
echo "PASS: refused as one of 2 tasks with the fix named; runs as a singleton in a batch script"
