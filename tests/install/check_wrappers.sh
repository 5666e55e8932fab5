#!/usr/bin/env bash
# The compiler wrappers work from the build tree and after `cmake --install` to a fresh prefix:
# a C and a C++ program compile with them, the binaries find libweft without LD_LIBRARY_PATH, and
# run under the matching weftrun (and its mpirun/mpiexec names); every Open MPI and MPICH option
# spelling prints the right parts, and the compiler variables choose the compiler. Where the build
# has the Fortran bindings, mpifort/mpif90/mpif77 build a program in each style (mpif.h, use mpi,
# use mpi_f08) that runs the same way.
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

has() { grep -qF -- "$2" <<<"$1" || fail "$label: '$3' printed '$1', which lacks '$2'"; }
lacks() { grep -qF -- "$2" <<<"$1" && fail "$label: '$3' printed '$1', which has '$2'"; return 0; }

# check_options BIN_DIR LABEL: the printing options and the compiler variables.
check_options() {
  local bin=$1 label=$2 out opt inc lib
  inc=$("$bin/mpicc" --showme:incdirs)
  [ -f "$inc/mpi.h" ] || fail "$label: --showme:incdirs printed '$inc', which holds no mpi.h"
  lib=$("$bin/mpicc" --showme:libdirs)
  [ -e "$lib/libweft.so" ] || fail "$label: --showme:libdirs printed '$lib', without libweft.so"
  [ "$("$bin/mpicxx" --showme:incdirs)" = "$inc" ] || fail "$label: mpicxx --showme:incdirs differs"
  [ "$("$bin/mpicc" --showme:libs)" = weft ] || fail "$label: --showme:libs"
  for opt in --showme -showme -show --show -link_info -link-info; do
    out=$("$bin/mpicc" $opt -o x x.c)
    for part in "cc " "-I$inc" "-L$lib" "-Wl,-rpath,$lib" "-lweft" "x.c"; do
      has "$out" "$part" "$opt"
    done
  done
  for opt in -compile_info -compile-info; do
    out=$("$bin/mpicc" $opt -c x.c)
    has "$out" "cc -I$inc" "$opt"; lacks "$out" "-lweft" "$opt"
  done
  for opt in --showme:compile -showme:compile; do
    out=$("$bin/mpicxx" $opt)
    [ "$out" = "-I$inc" ] || fail "$label: $opt printed '$out', expected '-I$inc'"
  done
  for opt in --showme:link -showme:link; do
    out=$("$bin/mpicxx" $opt)
    has "$out" "-L$lib" "$opt"; has "$out" "-Wl,-rpath,$lib" "$opt"; has "$out" "-lweft" "$opt"
    lacks "$out" "-I" "$opt"
  done
  out=$("$bin/mpicc" --showme:version)
  [[ $out == "mpicc: Weft "[0-9]*" C wrapper around 'cc'" ]] || fail "$label: --showme:version: $out"
  out=$("$bin/mpicxx" -v | head -1)
  [[ $out == "mpicxx: Weft "[0-9]*" C++ wrapper around 'c++'" ]] || fail "$label: mpicxx -v: $out"
  "$bin/mpicc" -v >/dev/null 2>&1 || fail "$label: mpicc -v alone failed"
  out=$("$bin/mpicc" --showme:nonsense 2>&1) && fail "$label: --showme:nonsense accepted"
  has "$out" "unknown option --showme:nonsense" "--showme:nonsense"
  # The compiler variables: Weft's first, then Open MPI's, then MPICH's spelling.
  [[ $(WEFT_CC=gcc OMPI_CC=false MPICH_CC=false "$bin/mpicc" -show x.c) == "gcc -I"* ]] ||
    fail "$label: WEFT_CC ignored"
  [[ $(OMPI_CC=gcc MPICH_CC=false "$bin/weftcc" --showme x.c) == "gcc -I"* ]] ||
    fail "$label: OMPI_CC ignored"
  [[ $(MPICH_CC=gcc "$bin/mpicc" -show x.c) == "gcc -I"* ]] || fail "$label: MPICH_CC ignored"
  [[ $(WEFT_CXX=g++ "$bin/weftcxx" -show x.cpp) == "g++ -I"* ]] || fail "$label: WEFT_CXX ignored"
  [[ $(OMPI_CXX=g++ "$bin/mpicxx" --showme x.cpp) == "g++ -I"* ]] ||
    fail "$label: OMPI_CXX ignored"
  [[ $(MPICH_CXX=g++ "$bin/mpicxx" -show x.cpp) == "g++ -I"* ]] || fail "$label: MPICH_CXX ignored"
  [[ $(WEFT_CC=gcc "$bin/mpicc" --showme:version) == *"around 'gcc'" ]] ||
    fail "$label: --showme:version ignores WEFT_CC"
  # ... and the compiler named is the one that runs (a stand-in that leaves a mark, then runs gcc).
  printf '#!/bin/sh\necho "$@" >>"%s/marked_cc.log"\nexec gcc "$@"\n' "$work" >"$work/marked_cc"
  chmod +x "$work/marked_cc"
  rm -f "$work/marked_cc.log"
  WEFT_CC="$work/marked_cc" "$bin/mpicc" -O2 -o "$work/$label-marked" "$src/examples/ring.c"
  grep -qF -- "-lweft" "$work/marked_cc.log" || fail "$label: WEFT_CC's compiler did not run"
  [ -x "$work/$label-marked" ] || fail "$label: WEFT_CC build made no program"
}

# check_fortran BIN_DIR LABEL: one program per Fortran style, each through one wrapper name.
check_fortran() {
  local bin=$1 label=$2 style wrapper inc use include
  [ -x "$bin/mpifort" ] || { echo "no mpifort in $label: the build has no Fortran compiler"; return 0; }
  for style in mpif mpi mpi_f08; do
    case $style in
      mpif) wrapper=mpif77 use="      implicit none" include="      include 'mpif.h'" ;;
      mpi) wrapper=mpif90 use="      use mpi" include="      implicit none" ;;
      mpi_f08) wrapper=mpifort use="      use mpi_f08" include="      implicit none" ;;
    esac
    printf '      program hello\n%s\n%s\n      integer ierr, rank\n      call MPI_INIT(ierr)\n      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)\n      print *, "fortran hello", rank\n      call MPI_FINALIZE(ierr)\n      end\n' \
      "$use" "$include" >"$work/$style.f"
    "$bin/$wrapper" -o "$work/$label-$style" "$work/$style.f" || fail "$label: $wrapper ($style)"
    [ "$(env -u LD_LIBRARY_PATH "$bin/weftrun" -n 2 "$work/$label-$style" | grep -c 'fortran hello')" = 2 ] ||
      fail "$label: the $style program did not run on 2 ranks"
  done
  inc=$("$bin/mpifort" --showme:incdirs)
  for f in mpif.h mpi.mod mpi_f08.mod; do
    # shellcheck disable=SC2086  # the directories are words
    [ -n "$(find $inc -maxdepth 1 -name "$f")" ] ||
      fail "$label: mpifort --showme:incdirs ($inc) holds no $f"
  done
  [[ $("$bin/mpifort" --showme:link) == *"-lweft_fortran -lweft"* ]] || fail "$label: mpifort link"
  [[ $(WEFT_FC=gfortran-12 OMPI_FC=false "$bin/weftfort" -show x.f90) == "gfortran-12 "* ]] ||
    fail "$label: WEFT_FC ignored"
  [[ $(MPICH_FC=gfortran-12 "$bin/mpif90" -show x.f90) == "gfortran-12 "* ]] ||
    fail "$label: MPICH_FC ignored"
}

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
  # weftrun finds the profiler beside itself (the installation's lib, or the build tree's).
  env -u LD_LIBRARY_PATH WEFT_PROFILE_HTML=off "$bin/weftrun" -n 2 --profile "$work/$label-cxx" 2>&1 >/dev/null |
    grep -q '^weft profile: 2 ranks' || fail "$label: weftrun --profile made no report"
  # Started without a launcher the program is a one-rank world.
  env -u LD_LIBRARY_PATH "$work/$label-cxx" | grep -q '^hello from 0 of 1$' || fail "$label: singleton"
  check_options "$bin" "$label"
  check_fortran "$bin" "$label"
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
