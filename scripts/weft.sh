#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine (run as root, or with sudo available):
#   scripts/weft.sh demo   install missing packages, build, run the ring demo on 4 ranks
#   scripts/weft.sh test   install missing packages, build, run the whole test suite
#   scripts/weft.sh build  install missing packages and build only
#   scripts/weft.sh package  install missing packages, build, and make the Debian package
#                          $BUILD_DIR/weft_<version>-1_<arch>.deb (installs into /opt/weft)
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${WEFT_BUILD_DIR:-build}
PACKAGES=(g++ gfortran python3 make cmake ninja-build pkg-config libucx-dev ucx-utils libfabric-dev libpmix-dev
          libhwloc-dev catch2 iproute2 slurmd slurmctld slurm-client man-db dpkg-dev file mmdebstrap)
# Only for the tests: Chromium draws the profiler's HTML page (profiling.browser; skipped without).
TEST_PACKAGES=(chromium)

install_missing_packages() {  # install_missing_packages PACKAGE...
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "weft: installing missing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

build() {
  install_missing_packages "${PACKAGES[@]}"
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
  cmake --build "$BUILD_DIR" -j "$(nproc)"
}

# Loopback only: this machine's jobs never need another network device.
export UCX_NET_DEVICES=${UCX_NET_DEVICES:-lo} FI_TCP_IFACE=${FI_TCP_IFACE:-lo}

case "${1:-}" in
  build)
    build ;;
  demo)
    build
    "$BUILD_DIR/bin/weftrun" -n 4 "$BUILD_DIR/bin/ring" ;;
  test)
    install_missing_packages "${TEST_PACKAGES[@]}"
    build
    ctest --test-dir "$BUILD_DIR" --output-on-failure --timeout 300 -j "$(nproc)" ;;
  package)
    build
    (cd "$BUILD_DIR" && cpack -G DEB)
    echo "weft: $(ls "$BUILD_DIR"/weft_*.deb) (install: apt-get install ./$(cd "$BUILD_DIR" && ls weft_*.deb))" ;;
  *)
    echo "usage: $0 demo|test|build|package" >&2
    exit 2 ;;
esac
