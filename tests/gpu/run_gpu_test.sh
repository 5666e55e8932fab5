#!/usr/bin/env bash
# Runs one GPU test program under weftrun, or skips (exit 77) without starting weftrun when the
# probe finds no CUDA device.
# usage: run_gpu_test.sh PROBE WEFTRUN NRANKS PROGRAM [ARG...]
set -uo pipefail
probe=$1 weftrun=$2 nranks=$3
shift 3
"$probe"
status=$?
[ $status -eq 0 ] || exit $status  # 77: no device (the probe said why); anything else: broken
exec "$weftrun" -n "$nranks" --timeout 120 "$@"
