#!/usr/bin/env bash
# Checks that tests/mpi/CMakeLists.txt lists every algorithm the library has: started with an
# unknown name in every WEFT_<COLL>_ALGORITHM, the library warns with the names it knows, which
# must be the ones given here. Usage: coll_names.sh PROGRAM coll=alg,alg... ...
set -u
prog=$1
shift
settings=()
for spec in "$@"; do
  coll=${spec%%=*}
  settings+=("WEFT_${coll^^}_ALGORITHM=none-such")
done
out=$(env "${settings[@]}" timeout -s KILL 30 "$prog" 2>&1 </dev/null)
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: $prog with unknown algorithm names exited with $rc"; echo "$out"; exit 1; }
failed=0
for spec in "$@"; do
  coll=${spec%%=*} listed=${spec#*=}
  var="WEFT_${coll^^}_ALGORITHM"
  line=$(grep -F "$var" <<<"$out" | grep -F 'choose from: ' | head -n 1)
  if [ -z "$line" ]; then
    echo "FAIL: no warning naming the $coll algorithms for $var=none-such"
    failed=1
    continue
  fi
  known=$(sed -e 's/.*choose from: //' -e 's/)[^)]*$//' <<<"$line" | tr -d ' ' | tr ',' '\n' |
          grep -vx auto | sort | tr '\n' ' ')
  want=$(tr ',' '\n' <<<"$listed" | sort | tr '\n' ' ')
  if [ "$known" != "$want" ]; then
    echo "FAIL: $coll: the library has [ $known] but tests/mpi/CMakeLists.txt lists [ $want]"
    failed=1
  else
    echo "ok   $coll: $known"
  fi
done
exit $failed
