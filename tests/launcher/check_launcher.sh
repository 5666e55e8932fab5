#!/usr/bin/env bash
# Launcher failure handling: for each case, weftrun's exit code, its one-line message, and that no
# rank process, PMIx directory or /dev/shm file is left behind. Usage: check_launcher.sh WEFTRUN PROG CASE
set -u
weftrun=$1 prog=$2 case=$3
out=$(mktemp) err=$(mktemp)
# A private TMPDIR: the session directories checked are this test's alone, whatever other jobs
# run on the machine meanwhile.
base=$(mktemp -d); export TMPDIR=$base
trap 'rm -f "$out" "$err"; rm -rf "$base"' EXIT
. "$(dirname "$0")/../shm_left.sh"
shm_before=$(ls /dev/shm | sort)
tmp_before=$(ls -d "$TMPDIR"/weftrun.* 2>/dev/null | sort)
fail() { echo "FAIL [$case]: $*"; echo "--- stdout"; head -c 2000 "$out"; echo "--- stderr"; head -c 2000 "$err"; exit 1; }

run() {  # run weftrun with a hard outer bound so a launcher bug cannot hang the suite
  timeout -s KILL 60 "$weftrun" "$@" >"$out" 2>"$err" </dev/null
  rc=$?
}

expect() {  # expect CODE [REGEX]: exit code and a line of stderr
  [ "$rc" -eq "$1" ] || fail "exit code $rc, expected $1"
  [ -z "${2:-}" ] || grep -qE "$2" "$err" || fail "stderr lacks /$2/"
}

case $case in
  exit3)      run -n 4 "$prog" exit3;      expect 3 '^weftrun: rank 3 \(pid [0-9]+\) exited with code 3' ;;
  segv)       run -n 3 "$prog" segv;       expect 139 '^weftrun: rank 2 \(pid [0-9]+\) killed by SIGSEGV \(Segmentation fault\)' ;;
  spawn_exit3) run -n 2 "$prog" spawn_exit3; expect 3 '^weftrun: spawned weft\.[0-9]+\.spawn1 rank 1 \(.*failing_rank\) \(pid [0-9]+\) exited with code 3; ending the job' ;;
  spawn_segv)  run -n 1 "$prog" spawn_segv;  expect 139 '^weftrun: spawned weft\.[0-9]+\.spawn1 rank 1 \(.*failing_rank\) \(pid [0-9]+\) killed by SIGSEGV' ;;
  exit_before_init)  # the node's shared-memory segment exists, and no rank unlinks it
    run -n 3 "$prog" exit_before_init
    expect 5 '^weftrun: rank 2 \(pid [0-9]+\) exited with code 5'
    grep -q '^segment seen$' "$out" || fail "rank 2 never saw the node's shared-memory segment" ;;
  abort7)     run -n 4 "$prog" abort7;     expect 7 '^weftrun: rank 3 \(pid [0-9]+\) aborted the job with code 7: MPI_Abort\(MPI_COMM_WORLD, 7\)' ;;
  fatal)      run -n 2 "$prog" fatal;      expect 6 'MPI_Send: invalid rank dest=99 \(MPI_COMM_WORLD has 2 ranks\)' ;;
  nofinalize) run -n 2 "$prog" nofinalize; expect 1 'rank 1 \(pid [0-9]+\) aborted the job with code 1: rank 1 exited with status 0 without calling MPI_Finalize' ;;
  timeout)
    start=$(date +%s)
    run --timeout 2 -n 3 "$prog" hang
    expect 124 '^weftrun: job timed out after 2 s; killing 3 ranks'
    [ $(( $(date +%s) - start )) -le 6 ] || fail "took too long to end" ;;
  sigint)
    setsid "$weftrun" -n 3 "$prog" hang >"$out" 2>"$err" </dev/null &
    launcher=$!
    for _ in $(seq 100); do [ "$(grep -c '^pid ' "$out")" -eq 3 ] && break; sleep 0.1; done
    kill -INT "$launcher"
    for _ in $(seq 50); do kill -0 "$launcher" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$launcher" 2>/dev/null && { kill -KILL -- -"$launcher"; fail "weftrun still running 5 s after SIGINT"; }
    wait "$launcher"; rc=$?
    expect 130 '^weftrun: received SIGINT; ending the job' ;;
  lines)
    run --tag-output -n 4 "$prog" lines
    expect 0
    bad=$(grep -vE '^\[[0-3]\] (pid [0-3] [0-9]+|line rank=([0-3]) i=[0-9]+ ([a-d])\3{299}\3{300} end)$' "$out" | head -3)
    [ -z "$bad" ] || fail "damaged or interleaved lines: $bad"
    [ "$(grep -c ' end$' "$out")" -eq 800 ] || fail "expected 800 whole lines" ;;
  stdin)
    timeout -s KILL 60 "$weftrun" -n 2 "$prog" stdin >"$out" 2>"$err" < <(seq 1 1000); rc=$?
    expect 0
    grep -q '^rank 0 read 1000 lines$' "$out" || fail "rank 0 did not get stdin" ;;
  timeout_report)  # past --timeout, what each rank is blocked in, grouped, and the culprit
    run --timeout 2 -n 4 "$prog" stuck
    expect 124 '^weftrun: state of the job.s 4 ranks:$'
    grep -qE '^weftrun:   ranks 0-2: in MPI_Allreduce #2 on MPI_COMM_WORLD$' "$err" || fail "ranks 0-2 not reported in the allreduce"
    grep -qE '^weftrun:   rank 3: in MPI_Recv\(source=0, tag=7, 4 bytes\) on MPI_COMM_WORLD$' "$err" || fail "rank 3 not reported in its receive"
    grep -qE '^weftrun: likely culprit: rank 3, not where ranks 0-2 wait' "$err" || fail "no culprit named"
    grep -qE '^weftrun: job timed out after 2 s; killing 4 ranks$' "$err" || fail "no time-out line"
    ! grep -q 'weft-state' "$out" "$err" || fail "a raw state line was forwarded" ;;
  report_live)  # weftrun --report-state PID: the same report for a running job, which goes on
    setsid "$weftrun" -n 3 "$prog" stuck >"$out" 2>"$err" </dev/null &
    launcher=$!
    for _ in $(seq 100); do [ "$(grep -c '^pid ' "$out")" -eq 3 ] && break; sleep 0.1; done
    sleep 0.5
    "$weftrun" --report-state "$launcher" >/dev/null || fail "--report-state failed"
    for _ in $(seq 50); do grep -q 'likely culprit' "$err" && break; sleep 0.1; done
    grep -qE '^weftrun:   rank 2: in MPI_Recv\(source=0, tag=7, 4 bytes\) on MPI_COMM_WORLD$' "$err" || fail "no live report"
    kill -0 "$launcher" 2>/dev/null || fail "the job ended after the report"
    kill -TERM "$launcher"
    wait "$launcher"; rc=$?
    expect 143 ;;
  tree)  # 12 simulated hosts (this machine under other names), --fanout 3: a start-up tree
    hosts=$(for i in $(seq 12); do printf 'sim%d,' "$i"; done)
    run --fanout 3 --launch-agent 'env WEFT_SIMULATED_HOST={host}' --launcher-address 127.0.0.1 \
      --host "${hosts%,}" -l sh -c 'up() { awk "/^PPid/{print \$2}" /proc/$1/status; }
        echo "$(cat /proc/$(up $(up $PPID))/comm)"'
    expect 0
    # Each rank's weftd was started (through the agent) by weftrun or by another weftd.
    [ "$(grep -c 'weftrun$' "$out")" -eq 3 ] || fail "weftrun should start 3 daemons itself"
    [ "$(grep -c 'weftd$' "$out")" -eq 9 ] || fail "weftd's should start the other 9" ;;
  tree_failure)  # a host deep in the tree cannot be reached: one line names it, no hang
    hosts=$(for i in $(seq 12); do printf 'sim%d,' "$i"; done)
    run --fanout 3 --launch-agent \
      'sh -c '\''case {host} in sim9) echo "ssh: connect to host {host}: No route to host" >&2; exit 255;; esac; exec "$0" "$@"'\' \
      --launcher-address 127.0.0.1 --host "${hosts%,}" "$prog" ok
    expect 1 '^weftrun: host sim9: could not start weftd \(ssh: connect to host sim9: No route to host\); ending the job$' ;;
  bindings)  # --report-bindings: one line per rank, and the rank really runs where it says
    bind=core; [ "$(nproc)" -ge 2 ] || bind=core:overload-allowed
    run --report-bindings --tag-output -n 2 --bind-to $bind sh -c 'grep Cpus_allowed_list /proc/self/status'
    expect 0
    [ "$(grep -c '^weftrun: rank [01] on .* bound to ' "$err")" -eq 2 ] || fail "expected two binding lines"
    for r in 0 1; do
      reported=$(sed -nE "s/^weftrun: rank $r on [^ ]+ bound to package [0-9]+ core [0-9]+ \(PUs? ([0-9,-]+)\)$/\1/p" "$err")
      actual=$(sed -nE "s/^\[$r\] Cpus_allowed_list:\s*([0-9,-]+)$/\1/p" "$out")
      [ -n "$reported" ] && [ "$reported" = "$actual" ] ||
        fail "rank $r reported PUs '$reported' but runs on '$actual'"
    done
    # More ranks than cores with --bind-to core is refused, naming the host and the counts.
    run --bind-to core -n 1000 "$prog" ok
    expect 1 "cannot bind 1000 ranks to cores on [^:]+: it has [0-9]+ cores? \(use --bind-to core:overload-allowed"
    ;;
  stale)
    sleep 300 & live=$!
    trap 'kill "$live" 2>/dev/null; rm -rf "$base"; rm -f "$out" "$err"' EXIT
    # A launcher killed with SIGKILL takes its ranks with it but leaves its session directory.
    setsid "$weftrun" -n 2 "$prog" hang >"$out" 2>"$err" </dev/null &
    launcher=$!
    for _ in $(seq 100); do [ "$(grep -c '^pid ' "$out")" -eq 2 ] && break; sleep 0.1; done
    killed_ranks=$(awk '/^pid /{print $NF}' "$out")
    kill -KILL "$launcher"; wait "$launcher" 2>/dev/null
    killed_dir=$(ls -d "$base"/weftrun.* 2>/dev/null)
    [ -n "$killed_dir" ] || fail "the killed launcher left no session directory to test with"
    for pid in $killed_ranks; do
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$pid" 2>/dev/null && fail "rank $pid outlived its SIGKILLed launcher"
    done
    # Others: one whose owner runs, one whose owner is gone, one whose pid was reused by another
    # process, one just being made (no record yet), one with no record and an hour old.
    mkdir "$base"/weftrun.live "$base"/weftrun.dead "$base"/weftrun.reused "$base"/weftrun.fresh \
          "$base"/weftrun.old
    echo "$live $(awk '{print $22}' /proc/$live/stat)" >"$base"/weftrun.live/owner
    true & dead=$!; wait "$dead"
    echo "$dead 1" >"$base"/weftrun.dead/owner
    echo "$live 1" >"$base"/weftrun.reused/owner
    touch -d '1 hour ago' "$base"/weftrun.old
    run -n 2 "$prog" ok
    expect 0
    left=$(cd "$base" && ls -d weftrun.* | sort | tr '\n' ' ')
    [ "$left" = "weftrun.fresh weftrun.live " ] ||
      fail "after the next job, $base holds: $left (expected weftrun.fresh weftrun.live)"
    rm -rf "$base"/weftrun.fresh "$base"/weftrun.live ;;
  *) echo "unknown case $case"; exit 2 ;;
esac

# Nothing may survive the job: no rank, no PMIx directory of this run, no new shared-memory file.
for pid in $(awk '/^(\[[0-9]+\] )?pid /{print $NF}' "$out"); do
  kill -0 "$pid" 2>/dev/null && fail "rank process $pid still alive"
done
sleep 0.2
new_shm=$(shm_left "$shm_before")
[ -z "$new_shm" ] || fail "left in /dev/shm: $new_shm"
new_tmp=$(comm -13 <(echo "$tmp_before") <(ls -d "$TMPDIR"/weftrun.* 2>/dev/null | sort))
[ -z "$new_tmp" ] || fail "PMIx directory left behind: $new_tmp"
echo "PASS [$case]"
