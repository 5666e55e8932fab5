#!/usr/bin/env bash
# Checkpoint at 4 ranks, restart at 2 and at 8 (and 1): io_checkpoint writes a 3-D array with a
# subarray view collectively and reads it back on another decomposition. The file lives in a
# private temporary directory, removed on exit.
# usage: io_checkpoint.sh WEFTRUN PROGRAM
set -euo pipefail
weftrun=${1:?usage: io_checkpoint.sh WEFTRUN PROGRAM}
program=${2:?usage: io_checkpoint.sh WEFTRUN PROGRAM}
dir=$(mktemp -d "${TMPDIR:-/tmp}/weft_ckpt_XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$weftrun" -n 4 --timeout 60 "$program" write "$dir/array.dat"
for n in 2 8 1; do
  "$weftrun" -n "$n" --timeout 60 "$program" read "$dir/array.dat"
done
echo "io_checkpoint: written at 4, read at 2, 8 and 1"
