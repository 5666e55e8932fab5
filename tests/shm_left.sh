# Sourced by the launcher and multi-host checks: the /dev/shm files a test left behind. Tests
# that run at the same time (ctest -j) create and remove UCX's shared-memory files too, so a new
# file counts as left behind only if it is still there after a grace period (15 s) in which the
# other jobs' files come and go; a file the test's own job leaked never goes away.
# shm_left BEFORE: prints the files not in BEFORE (`ls /dev/shm | sort` taken at the start)
# that remain, or nothing.
shm_left() {
  local before=$1 new="" i
  for i in $(seq 30); do
    new=$(comm -13 <(echo "$before") <(ls /dev/shm | sort))
    [ -z "$new" ] && return 0
    sleep 0.5
  done
  echo "$new"
}
