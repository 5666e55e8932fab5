#!/usr/bin/env bash
# Building against Weft without its wrappers: `pkg-config --cflags --libs weft` and a CMake
# project using find_package(Weft) (and find_package(MPI)), from the build tree and from an
# installed prefix; each program runs under weftrun -n 2 without LD_LIBRARY_PATH.
# Usage: check_packages.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ring=$src/examples/ring.c
version=$(sed -n 's/^project(weft VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")

runs_on_2() {  # runs_on_2 WEFTRUN PROGRAM LABEL: the ring example's token comes back as 0 + 1
  env -u LD_LIBRARY_PATH "$1" -n 2 "$2" | grep -q '^rank 0: the token came back as 1 ' ||
    fail "$3: $2 did not run on 2 ranks"
  readelf -d "$2" | grep -q 'NEEDED.*\[libweft\.so' || fail "$3: $2 is not linked with libweft"
}

# check_pkgconfig PREFIX PC_DIR INCLUDE_DIR LABEL
check_pkgconfig() {
  local prefix=$1 pcdir=$2 inc=$3 label=$4 cflags libs requires
  export PKG_CONFIG_PATH=$pcdir
  [ "$(pkg-config --modversion weft)" = "$version" ] || fail "$label: weft.pc version"
  [ "$(pkg-config --variable=prefix weft)" = "$prefix" ] || fail "$label: weft.pc prefix"
  requires=$(pkg-config --print-requires-private weft | awk '{print $1}' | sort | xargs)
  [ "$requires" = "pmix ucx" ] ||
    fail "$label: weft.pc Requires.private is not ucx and pmix"
  cflags=$(pkg-config --cflags weft) libs=$(pkg-config --libs weft)
  grep -qF -- "-I$inc" <<<"$cflags" || fail "$label: cflags '$cflags' lack -I$inc"
  grep -qF -- "-lweft" <<<"$libs" || fail "$label: libs '$libs' lack -lweft"
  # shellcheck disable=SC2086  # the flags are words
  cc $cflags -o "$work/$label-pc" "$ring" $libs
  unset PKG_CONFIG_PATH
  runs_on_2 "$prefix/bin/weftrun" "$work/$label-pc" "$label pkg-config"
}

# check_cmake PREFIX BIN_DIR LABEL: the consumer project configured against PREFIX.
check_cmake() {
  local prefix=$1 bin=$2 label=$3 out=$work/$3-cmake
  cmake -S "$src/tests/install/consumer" -B "$out" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DRING_SOURCE="$ring" -DMPI_C_COMPILER="$bin/mpicc" >"$out.log" 2>&1 ||
    { cat "$out.log"; fail "$label: consumer project does not configure"; }
  grep -q "^Weft_DIR:PATH=$prefix/lib" "$out/CMakeCache.txt" || fail "$label: found another Weft"
  cmake --build "$out" >>"$out.log" 2>&1 ||
    { cat "$out.log"; fail "$label: consumer project does not build"; }
  runs_on_2 "$bin/weftrun" "$out/ring_weft" "$label find_package(Weft)"
  runs_on_2 "$bin/weftrun" "$out/ring_findmpi" "$label find_package(MPI)"
}

check_pkgconfig "$build" "$build/lib/pkgconfig" "$src/include" build-tree
check_cmake "$build" "$build/bin" build-tree
echo "ok: build-tree"

cmake --install "$build" --prefix "$work/prefix" >/dev/null
prefix=$work/prefix
libdir=$(dirname "$(ls "$prefix"/lib*/libweft.so)")
for f in "$libdir/pkgconfig/weft.pc" "$libdir/cmake/Weft/WeftConfig.cmake" \
         "$libdir/cmake/Weft/WeftConfigVersion.cmake"; do
  [ -e "$f" ] || fail "install lacks $f"
done
check_pkgconfig "$prefix" "$libdir/pkgconfig" "$prefix/include" installed
check_cmake "$prefix" "$prefix/bin" installed
echo "ok: installed"
echo "PASS"
