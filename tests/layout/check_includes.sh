#!/usr/bin/env bash
# The folder rules of runtime/ (each folder's README.md says its own): which project headers the
# files of a folder may include. Prints every include that breaks a rule and fails if any does.
# usage: check_includes.sh SOURCE_DIR
set -uo pipefail
cd "${1:?usage: check_includes.sh SOURCE_DIR}"

violations=0
# check FOLDER MODE PATTERN...: MODE "only" allows just includes matching a pattern (plus
# system headers), MODE "never" forbids includes matching any pattern.
check() {
  local folder=$1 mode=$2; shift 2
  local file line header pattern hit
  while IFS= read -r file; do
    while IFS= read -r line; do
      header=${line#*\"}; header=${header%%\"*}
      hit=0
      for pattern in "$@"; do [[ $header == $pattern ]] && hit=1; done
      if { [ "$mode" = only ] && [ $hit -eq 0 ]; } || { [ "$mode" = never ] && [ $hit -eq 1 ]; }; then
        echo "$file: includes \"$header\" ($folder/ may $([ "$mode" = only ] && echo "include only: $*" || echo "never include: $*"))"
        violations=$((violations + 1))
      fi
    done < <(grep -E '^#include "' "$file")
  done < <(find "$folder" -name '*.cpp' -o -name '*.hpp' | sort)
}

check runtime/datatype only 'mpi.h' 'runtime/status.hpp' 'runtime/datatype/*'
check runtime/op only 'mpi.h' 'runtime/status.hpp' 'runtime/datatype/*' 'runtime/op/*'
check gpu only 'mpi.h' 'runtime/status.hpp' 'runtime/datatype/*' 'runtime/op/*' 'gpu/*'
check io only 'mpi.h' 'runtime/status.hpp' 'runtime/datatype/*' 'runtime/threads/*' 'io/*'
check runtime/comm never 'runtime/topology/*' 'runtime/c_api/*' 'runtime/info/*'
check runtime/topology never 'runtime/c_api/*' 'runtime/info/*'
check runtime/session never 'runtime/c_api/*' 'runtime/info/*'
for folder in pt2pt coll rma launcher; do
  check "$folder" never 'runtime/c_api/*' 'runtime/info/*'
done
check runtime/tools never 'runtime/c_api/*' 'runtime/info/*'
# The profiler (profile/README.md) reaches the library only through mpi.h's PMPI_* calls; of the
# rest of the tree it shares only the settings table.
check profile only 'mpi.h' 'runtime/config.hpp' 'profile/*'
# MPI_T (runtime/tools/README.md): any layer may count into counters.hpp; only the C boundary
# reaches the rest.
while IFS= read -r file; do
  echo "$file: includes runtime/tools/tools.hpp (only runtime/c_api/ and runtime/tools/ may)"
  violations=$((violations + 1))
done < <(grep -rlE '^#include "runtime/tools/tools.hpp"' --include='*.cpp' --include='*.hpp' \
           runtime pt2pt coll rma io launcher gpu 2>/dev/null | grep -vE '^runtime/(c_api|tools)/')
for file in runtime/*.cpp runtime/*.hpp; do
  grep -qE '^#include "runtime/(c_api|info)/' "$file" &&
    { echo "$file: the top of runtime/ includes the C boundary or a tool"; violations=$((violations + 1)); }
done

if [ $violations -gt 0 ]; then
  echo "check_includes: $violations include(s) break the folder rules" >&2
  exit 1
fi
echo "check_includes: every include follows the folder rules"
