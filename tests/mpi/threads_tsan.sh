#!/usr/bin/env bash
# The MPI_THREAD_MULTIPLE programs (and the MPI-IO ones that run work on io/'s threads) built
# with ThreadSanitizer and run under weftrun: configures and builds a second build directory
# (library and programs, -fsanitize=thread), then runs each program at 1, 2 and 4 ranks; any
# ThreadSanitizer report fails the test.
# Usage: threads_tsan.sh SOURCE_DIR TSAN_BUILD_DIR WEFTRUN PROGRAM...
set -euo pipefail
src=$1 dir=$2 weftrun=$3
shift 3
flags="-fsanitize=thread -g -O1"
cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >/dev/null
cmake --build "$dir" -j "$(nproc)" --target $(printf 'mpi_%s ' "$@") >/dev/null

# UCX's error handling installs signal handlers, and its memory hooks patch mmap and malloc:
# both get in ThreadSanitizer's way (docs/platform-facts.md §3).
export UCX_HANDLE_ERRORS=none UCX_MEM_MALLOC_HOOKS=n UCX_MEM_MMAP_HOOK_MODE=none
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 suppressions=$src/tests/mpi/tsan.supp"
for program in "$@"; do
  for n in 1 2 4; do
    echo "tsan: $program at $n ranks"
    "$weftrun" -n "$n" --timeout 240 "$dir/bin/mpi_$program"
  done
done
echo "tsan: clean"
