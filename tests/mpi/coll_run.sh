#!/usr/bin/env bash
# Runs collective test programs under weftrun at each rank count with the given WEFT_* settings
# and names every (program, rank count, settings) that failed; exits 1 if any did.
# Usage: coll_run.sh WEFTRUN "NP..." [NAME=VALUE...] -- PROGRAM...
#   A PROGRAM may carry arguments after spaces ("path/prog arg"); NP "singleton" runs the
#   program without weftrun (a one-rank world).
# A run fails on a nonzero exit, or on a "weft: warning" (e.g. a misspelt algorithm name, which
# would otherwise silently test the default choice).
set -u
weftrun=$1 nps=$2
shift 2
settings=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do settings+=("$1"); shift; done
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || { echo "usage: coll_run.sh WEFTRUN \"NP...\" [NAME=VALUE...] -- PROGRAM..."; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
failures=()
for spec in "$@"; do
  read -r -a cmd <<<"$spec"
  name=$(basename "${cmd[0]}")
  [ ${#cmd[@]} -gt 1 ] && name="$name ${cmd[*]:1}"
  for np in $nps; do
    where="-n $np"
    [ "$np" = singleton ] && where=singleton
    what="$name $where${settings[*]:+ with ${settings[*]}}"
    start=$(date +%s%N)
    if [ "$np" = singleton ]; then
      env "${settings[@]}" timeout -s KILL 60 "${cmd[@]}" >"$out" 2>&1 </dev/null
    else
      env "${settings[@]}" timeout -s KILL 60 "$weftrun" -n "$np" --timeout 30 "${cmd[@]}" \
        >"$out" 2>&1 </dev/null
    fi
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    why=""
    if [ $rc -ne 0 ]; then
      why="exit code $rc"
    elif grep -q '^weft: warning' "$out"; then
      why="a warning from the library"
    fi
    if [ -z "$why" ]; then
      echo "ok   $what (${ms} ms)"
    else
      echo "FAIL $what: $why (${ms} ms)"
      sed 's/^/     | /' "$out" | tail -n 40
      failures+=("$what: $why")
    fi
  done
done
if [ ${#failures[@]} -gt 0 ]; then
  echo "${#failures[@]} failed:"
  printf '  %s\n' "${failures[@]}"
  exit 1
fi
