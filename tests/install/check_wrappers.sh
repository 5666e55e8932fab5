#!/usr/bin/env bash
# The compiler wrappers work from the build tree and after `cmake --install` to a fresh prefix:
# a C and a C++ program compile with them, the binaries find libweft without LD_LIBRARY_PATH, and
# run under the matching weftrun (and its mpirun/mpiexec names).
# Usage: check_wrappers.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat >"$work/hello.cpp" <<'CPP'
#include <mpi.h>
#include <cstdio>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::printf("hello from %d of %d\n", rank, size);
  MPI_Finalize();
}
CPP

check_prefix() {  # check_prefix BIN_DIR LABEL
  local bin=$1 label=$2
  "$bin/mpicc" -show -o x x.c | grep -q -- "-lweft" || fail "$label: mpicc -show lacks -lweft"
  "$bin/mpicc" -show -c x.c | grep -q -- "-lweft" && fail "$label: mpicc -c must not link"
  "$bin/mpicc" -O2 -o "$work/$label-c" "$src/tests/launcher/failing_rank.c"
  "$bin/mpicxx" -O2 -o "$work/$label-cxx" "$work/hello.cpp"
  "$bin/weftcc" -show | grep -q "cc" || fail "$label: weftcc missing"
  env -u LD_LIBRARY_PATH "$bin/weftrun" -n 2 "$work/$label-c" ok | grep -c '^pid ' | grep -qx 2 ||
    fail "$label: C program did not run on 2 ranks"
  [ "$(env -u LD_LIBRARY_PATH "$bin/mpirun" -n 3 "$work/$label-cxx" | grep -c '^hello from')" = 3 ] ||
    fail "$label: C++ program did not run on 3 ranks via mpirun"
  env -u LD_LIBRARY_PATH "$bin/mpiexec" -n 1 "$work/$label-cxx" | grep -q '^hello from 0 of 1$' ||
    fail "$label: mpiexec"
  # Started without a launcher the program is a one-rank world.
  env -u LD_LIBRARY_PATH "$work/$label-cxx" | grep -q '^hello from 0 of 1$' || fail "$label: singleton"
  echo "ok: $label"
}

check_prefix "$build/bin" build-tree
cmake --install "$build" --prefix "$work/prefix" >/dev/null
for f in bin/weftrun bin/mpirun bin/mpiexec bin/mpicc bin/mpicxx bin/weft_info include/mpi.h \
         share/man/man1/weftrun.1 share/man/man7/weft.7; do
  [ -e "$work/prefix/$f" ] || fail "install lacks $f"
done
ls "$work/prefix"/lib*/libweft.so >/dev/null || fail "install lacks libweft.so"
check_prefix "$work/prefix/bin" installed
echo "PASS"
