#!/usr/bin/env bash
# The Debian package: `cpack -G DEB` makes it from the build tree; its Depends name the libraries
# Weft links (computed by dpkg-shlibdeps); and in a clean Debian 12 root that mmdebstrap makes,
# `apt-get install ./weft_*.deb` pulls them in, the packaged mpicc builds a program that
# weftrun runs on 2 ranks from /opt/weft, and man finds its pages through PATH.
# Usage: check_deb.sh BUILD_DIR. Exits 77 (skipped), saying why, where no clean root
# can be made: not root, mmdebstrap or dpkg-shlibdeps missing, or no Debian mirror reachable.
set -euo pipefail
build=$1
mirror=${WEFT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
skip() { echo "skipped: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" -eq 0 ] || skip "not root (mmdebstrap and chroot need root)"
command -v mmdebstrap >/dev/null || skip "mmdebstrap is not installed (apt-get install mmdebstrap)"
command -v dpkg-shlibdeps >/dev/null || skip "dpkg-shlibdeps is not installed (apt-get install dpkg-dev)"
host=${mirror#*://}; host=${host%%/*}
timeout 10 bash -c "exec 3<>/dev/tcp/$host/80" 2>/dev/null || skip "the Debian mirror $mirror cannot be reached"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$build" && cpack -G DEB -B "$work/package" >"$work/cpack.log") ||
  { cat "$work/cpack.log"; fail "cpack -G DEB failed"; }
deb=$(ls "$work"/package/weft_*_amd64.deb 2>/dev/null || ls "$work"/package/weft_*.deb)
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libucx0 libpmix2 libhwloc15 libc6 libstdc++6; do
  grep -q "\b$lib\b" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
contents=$(dpkg-deb -c "$deb")
grep -q ' ./opt/weft/bin/weftrun$' <<<"$contents" || fail "the package has no /opt/weft/bin/weftrun"
echo "ok: $(basename "$deb"), Depends: $depends"

cat >"$work/allreduce.c" <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, sum = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (sum != size * (size - 1) / 2) {
    printf("rank %d: the sum of the ranks came out as %d\n", rank, sum);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (rank == 0) printf("packaged weft: %d ranks agree on %d\n", size, sum);
  MPI_Finalize();
  return 0;
}
C
# The root lives in mmdebstrap's temporary directory and is removed with it (target /dev/null);
# every hook must succeed for mmdebstrap to.
cp "$deb" "$work/weft.deb"
mmdebstrap --variant=apt --include=gcc,libc6-dev,man-db --dpkgopt=force-unsafe-io \
  --customize-hook="copy-in $work/weft.deb $work/allreduce.c /tmp" \
  --customize-hook='chroot "$1" apt-get install -y -q /tmp/weft.deb' \
  --customize-hook='chroot "$1" /opt/weft/bin/mpicc -O2 -o /tmp/allreduce /tmp/allreduce.c' \
  --customize-hook='chroot "$1" env UCX_NET_DEVICES=lo /opt/weft/bin/weftrun -n 2 /tmp/allreduce' \
  --customize-hook='chroot "$1" env PATH=/opt/weft/bin:/usr/bin:/bin man -w MPI_Send' \
  bookworm /dev/null "$mirror" >"$work/mmdebstrap.log" 2>&1 ||
  { tail -40 "$work/mmdebstrap.log"; fail "installing and using the package in a clean root failed"; }
grep -q "^packaged weft: 2 ranks agree on 1$" "$work/mmdebstrap.log" ||
  fail "the program did not report its result: $(tail -20 "$work/mmdebstrap.log")"
grep -q "^/opt/weft/share/man/man3/MPI_Send.3" "$work/mmdebstrap.log" || fail "man did not find MPI_Send(3)"
grep -E "^Setting up (libucx0|libpmix2|libhwloc15|weft) " "$work/mmdebstrap.log"
echo "ok: installed in a clean Debian 12 root, built a program with /opt/weft/bin/mpicc, ran it on 2 ranks"
