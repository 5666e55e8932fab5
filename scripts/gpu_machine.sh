#!/usr/bin/env bash
# Runs Weft's GPU tests and GPU benchmarks on a GPU machine that has CUDA but none of Weft's
# Debian dependencies (UCX, PMIx, hwloc, libevent, munge, numa, ...) and nothing to fetch them from.
#   scripts/gpu_machine.sh prepare   (here) Release build of the library, launcher and GPU programs;
#       installs them into .gpu-carry/weft and copies the Debian libraries they load, with PMIx's
#       and UCX's plugin folders, into .gpu-carry/root/ under their own paths.
#   scripts/gpu_machine.sh run [tests|bench|all]   (there, from the repository root, with
#       .gpu-carry carried) GPU tests at 2 and 4 ranks, then gpu_coll_bench on device and host
#       buffers, gpu_p2p_bench (device and host buffers, CUDA IPC on and off, UCX alone),
#       gpu_stream_bench (MPIX_Send/Recv_enqueue beside waiting for the stream), weft_tune (the
#       model's alpha_device_us and beta_device_ns_per_byte, into $OUT/tuning) and nccl_bench
#       (WEFT_GPU_BENCH_SIZES: the collectives' size options, default -b 8 -e 256M);
#       logs go to $OUT (default ./gpu-run). Exits 77 when no GPU is found, 1 when a test failed.
# The carried libraries are found through LD_LIBRARY_PATH, UCX_MODULE_DIR and
# PMIX_MCA_mca_base_component_path; nothing is written outside the repository.
set -uo pipefail
cd "$(dirname "$0")/.."

CARRY=.gpu-carry
BUILD_DIR=${WEFT_GPU_BUILD_DIR:-build-gpu}
CARRY_LIMIT_MIB=48    # the device tool takes 64 MiB with the working tree: leave it room
MULTIARCH=usr/lib/x86_64-linux-gnu
PMIX_PLUGINS=$MULTIARCH/pmix2/lib/pmix
UCX_MODULES=$MULTIARCH/ucx
# Libraries every Linux has in a version tied to its own loader: never carried.
SYSTEM_LIBS='^(ld-linux-x86-64|libc|libm|libdl|libpthread|librt|libresolv|libutil|libmvec)\.so'
# The CUDA driver and NCCL belong to the GPU machine's own installation.
CUDA_LIBS='^lib(cuda|nvidia-|nccl|cudart)'
# The compiler's runtime: carried apart (fallback/) and used only where the machine has none,
# so that a newer one there is not shadowed.
COMPILER_LIBS='^(libstdc\+\+|libgcc_s)\.so'

die() { echo "gpu_machine: $*" >&2; exit 1; }
say() { echo "$*" | tee -a "$SUMMARY"; }  # run: to the output and $OUT/summary.txt

elf_files() {  # elf_files DIR...: the ELF files under the folders
  find "$@" -type f -print0 | while IFS= read -r -d '' f; do
    [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] && echo "$f"
  done
}

# The shared libraries the files load (ldd's closure), as paths on this machine, less those that
# are never carried and Weft's own.
needed_libs() {  # needed_libs FILE...
  local f
  for f in "$@"; do ldd "$f" 2>/dev/null; done | awk '$2 == "=>" && $3 ~ /^\// {print $3}' |
    sort -u | while read -r lib; do
      name=$(basename "$lib")
      [[ $name =~ $SYSTEM_LIBS || $name =~ $CUDA_LIBS || $(readlink -f "$lib") == "$PWD"/* ]] ||
        echo "$lib"
    done
}

# carry_file PATH [-P]: copies PATH to root/ under its real folder and its own name (PATH's
# content; with -P a symbolic link stays one: a package's relative links to its own files).
carry_file() {
  local dir dest
  dir=$(readlink -f "$(dirname "$1")")
  dest=$CARRY/root$dir/$(basename "$1")
  [ -e "$dest" ] || [ -L "$dest" ] && return 0
  mkdir -p "$CARRY/root$dir"
  if [ "${2:-}" = -P ]; then cp -P "$1" "$dest"; else cp -L "$1" "$dest"; fi
}

package_files() {  # package_files PACKAGE: its installed regular files, documentation left out
  dpkg -L "$1" | grep -v -E '^/usr/share/(doc|man|lintian)/' | while read -r f; do
    [ -f "$f" ] || [ -L "$f" ] && echo "$f"
  done
}

prepare() {
  command -v dpkg >/dev/null || die "prepare runs on the Debian development machine (no dpkg here)"
  local type
  type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt" 2>/dev/null)
  [ -z "$type" ] || [ "$type" = Release ] ||
    die "$BUILD_DIR is a $type build: name a folder of its own with WEFT_GPU_BUILD_DIR"
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null ||
    die "cmake could not configure $BUILD_DIR"
  local targets
  targets=$(cmake --build "$BUILD_DIR" --target help)
  grep -q '^gpu_machine:' <<<"$targets" ||
    die "$BUILD_DIR has no CUDA support (no nvcc, or -DWEFT_CUDA=OFF): nothing to run on a GPU"
  cmake --build "$BUILD_DIR" -j "${WEFT_GPU_JOBS:-2}" --target gpu_machine || die "build failed"

  rm -rf "$CARRY"
  cmake --install "$BUILD_DIR" --prefix "$CARRY/weft" --strip >/dev/null || die "install failed"
  cmake --install "$BUILD_DIR" --prefix "$CARRY/weft" --strip --component gpu_machine >/dev/null ||
    die "install of the GPU programs failed"
  rm -rf "$CARRY/weft/share/man"  # not read there, and a sixth of the size

  local plugins=() f
  for pkg in libpmix2 libucx0; do
    while read -r f; do
      carry_file "$f" -P
      [ -L "$f" ] || plugins+=("$f")
    done < <(package_files "$pkg")
  done
  local libs
  libs=$(needed_libs $(elf_files "$CARRY/weft") "${plugins[@]}")
  mkdir -p "$CARRY/fallback"
  for f in $libs; do
    if [[ $(basename "$f") =~ $COMPILER_LIBS ]]; then
      cp -L "$f" "$CARRY/fallback/"
    else
      carry_file "$f"
    fi
  done

  local glibc
  glibc=$(ldd --version | head -1 | awk '{print $NF}')
  {
    echo "built from $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' (changed)')" \
         "on $(. /etc/os-release && echo "$PRETTY_NAME"), glibc $glibc"
    echo "glibc $glibc"
    echo "carried libraries:"
    (cd "$CARRY/root" && find . -type f | sort)
    echo "used only where the machine has none (fallback/):"
    ls "$CARRY/fallback"
  } >"$CARRY/MANIFEST"

  local bytes
  bytes=$(du -sb "$CARRY" | cut -f1)
  echo "gpu_machine: $CARRY holds $((bytes / 1024 / 1024)) MiB" \
       "($(find "$CARRY/root" -type f | wc -l) carried library files; list in $CARRY/MANIFEST)"
  [ "$bytes" -lt $((CARRY_LIMIT_MIB * 1024 * 1024)) ] ||
    die "$CARRY is over $CARRY_LIMIT_MIB MiB: the device tool would refuse it with the working tree"
  echo "gpu_machine: there, run 'bash scripts/gpu_machine.sh run' with carry [\"$CARRY\"]"
}

# ---- run (on the GPU machine) ----

version_at_least() {  # version_at_least HAVE NEED
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -1)" = "$2" ]
}

use_carried_libraries() {
  local root=$PWD/$CARRY/root
  local dirs=$root/$MULTIARCH:$root/$MULTIARCH/pmix2/lib
  export LD_LIBRARY_PATH=$dirs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export UCX_MODULE_DIR=$root/$UCX_MODULES
  export PMIX_MCA_mca_base_component_path=$root/$PMIX_PLUGINS
  local lib
  for lib in "$PWD/$CARRY"/fallback/lib*; do
    [ -e "$lib" ] || continue
    if ! ldconfig -p | grep -q "^[[:space:]]*$(basename "$lib") "; then
      export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/$CARRY/fallback
      echo "gpu_machine: this machine has no $(basename "$lib"): using the carried one"
    fi
  done
  # NCCL, where the machine has one (a CUDA toolkit's, or a Python package's), for Weft's dlopen.
  local nccl
  nccl=$(find_nccl)
  [ -z "$nccl" ] || export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$nccl
  # One machine: loopback only, as in the test suite.
  export UCX_NET_DEVICES=lo FI_TCP_IFACE=lo UCX_WARN_UNUSED_ENV_VARS=n
}

find_nccl() {  # prints the folder of a libnccl.so.2 on this machine, if there is one
  local lib
  lib=$(ldconfig -p 2>/dev/null | awk '/libnccl\.so\.2 /{print $NF; exit}')
  [ -z "$lib" ] && lib=$(find /usr/local/cuda/ /usr/local/cuda/targets/ /usr/lib/ /opt/ \
                            -maxdepth 10 -name libnccl.so.2 2>/dev/null | head -1)
  [ -n "$lib" ] && dirname "$lib"
}

run_tests() {  # run_tests OUT: the GPU test programs at 2 and 4 ranks; fails if one did
  local out=$1 failed=0 name n status
  echo "== device_reduce_check" >>"$out/tests.log"
  "$TESTS_DIR/device_reduce_check" >>"$out/tests.log" 2>&1
  status=$?
  say "test device_reduce_check: $([ $status -eq 0 ] && echo passed || echo "FAILED (exit $status)")"
  [ $status -eq 0 ] || failed=1
  for name in gpu_pt2pt gpu_ipc gpu_coll_reduce gpu_coll_move gpu_rma gpu_streams; do
    for n in 2 4; do
      echo "== $name at $n ranks" >>"$out/tests.log"
      "$WEFT_DIR/bin/weftrun" -n "$n" --timeout 120 "$TESTS_DIR/$name" >>"$out/tests.log" 2>&1
      status=$?
      say "test $name np$n: $([ $status -eq 0 ] && echo passed || echo "FAILED (exit $status)")"
      [ $status -eq 0 ] || failed=1
    done
  done
  # The stream-ordered calls on the legacy default stream.
  echo "== gpu_streams legacy at 2 ranks" >>"$out/tests.log"
  "$WEFT_DIR/bin/weftrun" -n 2 --timeout 120 "$TESTS_DIR/gpu_streams" legacy >>"$out/tests.log" 2>&1
  status=$?
  say "test gpu_streams legacy np2: $([ $status -eq 0 ] && echo passed || echo "FAILED (exit $status)")"
  [ $status -eq 0 ] || failed=1
  # Device messages through UCX alone (the carried UCX has no CUDA: fed from a staging pipeline).
  echo "== gpu_ipc ucx at 2 ranks" >>"$out/tests.log"
  WEFT_SHM=0 "$WEFT_DIR/bin/weftrun" -n 2 --timeout 120 "$TESTS_DIR/gpu_ipc" ucx >>"$out/tests.log" 2>&1
  status=$?
  say "test gpu_ipc ucx np2: $([ $status -eq 0 ] && echo passed || echo "FAILED (exit $status)")"
  [ $status -eq 0 ] || failed=1
  # The NCCL path: 1 rank runs NCCL, 2 ranks on one GPU fall back to Weft's schedules.
  local forced=(WEFT_BCAST_ALGORITHM=nccl WEFT_REDUCE_ALGORITHM=nccl WEFT_ALLREDUCE_ALGORITHM=nccl
                WEFT_ALLGATHER_ALGORITHM=nccl WEFT_REDUCE_SCATTER_ALGORITHM=nccl
                WEFT_ALLTOALL_ALGORITHM=nccl)
  for n in 1 2; do
    echo "== gpu_nccl_coll at $n ranks, nccl forced" >>"$out/tests.log"
    env "${forced[@]}" "$WEFT_DIR/bin/weftrun" -n "$n" --timeout 120 "$TESTS_DIR/gpu_nccl_coll" \
      >>"$out/tests.log" 2>&1
    status=$?
    say "test gpu_nccl_coll forced np$n: $([ $status -eq 0 ] && echo passed || echo "FAILED (exit $status)")"
    [ $status -eq 0 ] || failed=1
  done
  return $failed
}

run_benchmarks() {  # run_benchmarks OUT: gpu_coll_bench (device, host) at 1, 2 and 4 ranks,
  # gpu_p2p_bench, NCCL
  local out=$1 n buffers sizes=${WEFT_GPU_BENCH_SIZES:--b 8 -e 256M}
  for n in 1 2 4; do  # 1 rank: the cost of the GPU copies alone, no GPU shared between ranks
    for buffers in device host; do
      echo "== gpu_coll_bench at $n ranks, $buffers buffers" >>"$out/bench.log"
      "$WEFT_DIR/bin/weftrun" -n "$n" --timeout 150 "$TESTS_DIR/gpu_coll_bench" $sizes \
        $([ $buffers = host ] && echo -H) >>"$out/bench.log" 2>&1 ||
        say "gpu_coll_bench np$n $buffers: FAILED (exit $?)"
    done
  done
  # Device buffers with CUDA IPC off (WEFT_GPU_IPC=0: staged through host memory), the A/B of
  # the mapped path above.
  for n in 2 4; do
    echo "== gpu_coll_bench at $n ranks, device buffers, WEFT_GPU_IPC=0" >>"$out/bench.log"
    WEFT_GPU_IPC=0 "$WEFT_DIR/bin/weftrun" -n "$n" --timeout 150 "$TESTS_DIR/gpu_coll_bench" \
      $sizes >>"$out/bench.log" 2>&1 || say "gpu_coll_bench np$n WEFT_GPU_IPC=0: FAILED (exit $?)"
  done
  # Point-to-point between 2 ranks sharing the GPU (perf/gpu_p2p_bench, OSU-style): device to
  # device by CUDA IPC, by host copies (WEFT_GPU_IPC=0) and through UCX alone (WEFT_SHM=0: the
  # staging pipeline, deep and one chunk deep), and host to device.
  local label setting
  for label in "D D|" "D D|WEFT_GPU_IPC=0" "D D|WEFT_SHM=0" "D D|WEFT_SHM=0 WEFT_GPU_STAGING_DEPTH=1"     "H D|"; do
    setting=${label#*|}
    echo "== gpu_p2p_bench ${label%|*} ${setting:-(defaults)}" >>"$out/bench.log"
    env $setting "$WEFT_DIR/bin/weftrun" -n 2 --timeout 150 "$TESTS_DIR/gpu_p2p_bench"       -m 67108864 ${label%|*} >>"$out/bench.log" 2>&1 ||
      say "gpu_p2p_bench ${label%|*} $setting: FAILED (exit $?)"
  done
  # Stream-ordered point-to-point (perf/gpu_stream_bench): MPIX_Send/Recv_enqueue on a CUDA
  # stream beside the same ping-pong waiting for the stream on the host.
  echo "== gpu_stream_bench" >>"$out/bench.log"
  "$WEFT_DIR/bin/weftrun" -n 2 --timeout 150 "$TESTS_DIR/gpu_stream_bench" -m 16777216 \
    >>"$out/bench.log" 2>&1 || say "gpu_stream_bench: FAILED (exit $?)"
  local nccl_dir
  # The cost model's copies between GPU and host memory, as weft_tune measures them here.
  echo "== weft_tune" >>"$out/bench.log"
  "$WEFT_DIR/bin/weftrun" -n 2 --timeout 150 "$WEFT_DIR/bin/weft_tune" -o "$out/tuning" --force \
    >>"$out/bench.log" 2>&1 || say "weft_tune: FAILED (exit $?)"
  grep -E '^(alpha|beta)_device' "$out/tuning" 2>/dev/null | tee -a "$SUMMARY"
  nccl_dir=$(find_nccl)
  if [ -z "$nccl_dir" ]; then
    say "nccl_bench: no libnccl.so.2 on this machine, NCCL not measured"
  else
    for n in 1 2; do  # two ranks on one GPU: NCCL refuses, nccl_bench says so
      echo "== nccl_bench at $n ranks ($nccl_dir/libnccl.so.2)" >>"$out/bench.log"
      LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$nccl_dir "$WEFT_DIR/bin/weftrun" -n "$n" --timeout 150 \
        "$TESTS_DIR/nccl_bench" $sizes >>"$out/bench.log" 2>&1 ||
        say "nccl_bench np$n: exit $? (see bench.log)"
    done
  fi
  # The summary keeps each run's header, its lines of 128 MiB and more (point-to-point: 8 B,
  # 1 MiB, 64 MiB; stream-ordered: 8 B, 1 MiB, 16 MiB) and those with wrong results, and what
  # nccl_bench said.
  awk '/^(==|# [A-Z]|nccl_bench:)/ || ($1 ~ /^[0-9]+$/ && ($1 >= 134217728 || $NF != 0 ||
       (NF == 4 && ($1 == 8 || $1 == 1048576 || $1 == 67108864)) ||
       (NF == 5 && ($1 == 8 || $1 == 1048576 || $1 == 16777216))))' \
    "$out/bench.log" | tee -a "$SUMMARY"
}

run() {  # run [tests|bench|all]
  local what=${1:-all} out=${OUT:-$PWD/gpu-run}
  mkdir -p "$out"
  WEFT_DIR=$PWD/$CARRY/weft TESTS_DIR=$PWD/$CARRY/weft/gpu-tests
  [ -x "$WEFT_DIR/bin/weftrun" ] ||
    die "no $CARRY/weft/bin/weftrun: run 'scripts/gpu_machine.sh prepare' first, carry $CARRY"
  local info=$out/info.log
  SUMMARY=$out/summary.txt
  : >"$SUMMARY"

  local have need
  have=$(ldd --version 2>/dev/null | head -1 | awk '{print $NF}')
  need=$(awk '/^glibc /{print $2; exit}' "$CARRY/MANIFEST")
  if [ -n "$have" ] && [ -n "$need" ] && ! version_at_least "$have" "$need"; then
    say "gpu_machine: this machine's glibc $have is older than $need, the carried programs' glibc"
    exit 1
  fi
  use_carried_libraries
  {
    echo "== machine"; uname -a; head -2 /etc/os-release; nproc; df -h /dev/shm; nvidia-smi -L
    echo "== $CARRY/MANIFEST"; head -2 "$CARRY/MANIFEST"
  } >"$info" 2>&1

  "$TESTS_DIR/gpu_probe" >>"$info" 2>&1
  local probe=$?
  tail -1 "$info" | tee -a "$SUMMARY"
  if [ $probe -ne 0 ]; then
    say "gpu_machine: no GPU here, nothing run (gpu_probe exit $probe; details in $info)"
    exit $([ $probe -eq 77 ] && echo 77 || echo 1)
  fi
  { echo "== weft_info"; "$WEFT_DIR/bin/weft_info"; } >>"$info" 2>&1

  local failed=0
  [ "$what" = bench ] || run_tests "$out" || failed=1
  [ "$what" = tests ] || run_benchmarks "$out"
  say "gpu_machine: logs in $out (summary.txt, info.log, tests.log, bench.log, tuning)"
  exit $failed
}

case "${1:-}" in
  prepare) prepare ;;
  run) run "${2:-all}" ;;
  *) echo "usage: $0 prepare | run [tests|bench|all]" >&2; exit 2 ;;
esac
