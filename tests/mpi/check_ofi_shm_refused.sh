#!/usr/bin/env bash
# libfabric 1.17's shm provider mismatches tagged messages (docs/platform-facts.md §5.3), so Weft
# refuses it: WEFT_OFI_PROVIDER=shm must fail in MPI_Init naming the provider and the reason,
# weft_info must list it as not used, and the same job with the provider chosen by the rule must
# run (Weft's own shared memory carries a node's ranks, libfabric the rest).
# Usage: check_ofi_shm_refused.sh WEFTRUN PROGRAM WEFT_INFO
set -u
weftrun=$1 prog=$2 info=$3
out=$(mktemp); trap 'rm -f "$out"' EXIT
WEFT_OFI_PROVIDER=shm "$weftrun" -n 2 --timeout 60 --transport ofi "$prog" >"$out" 2>&1
rc=$?
[ $rc -ne 0 ] || { echo "FAIL: a job on libfabric's shm provider ran"; cat "$out"; exit 1; }
grep -q 'WEFT_OFI_PROVIDER=shm: Weft does not use this provider: its tag matching is defective' "$out" ||
  { echo "FAIL: the refusal does not name the provider and the reason:"; cat "$out"; exit 1; }
WEFT_TRANSPORT=ofi "$info" --version >"$out" 2>&1
grep -q '^      shm: not used: its tag matching is defective' "$out" ||
  { echo "FAIL: weft_info does not list shm as not used:"; cat "$out"; exit 1; }
grep -q '^  network transport: ofi with provider ' "$out" ||
  { echo "FAIL: weft_info does not name the provider it would use:"; cat "$out"; exit 1; }
"$weftrun" -n 2 --timeout 60 --transport ofi "$prog" >"$out" 2>&1 ||
  { echo "FAIL: the job with the provider the rule picks failed:"; cat "$out"; exit 1; }
echo "PASS: shm refused with its reason, listed as not used; the rule's provider runs the job"
