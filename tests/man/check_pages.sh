#!/usr/bin/env bash
# The man 3 pages: every MPI_ and PMPI_ function libweft.so exports has a page in the build tree
# (its own, or a .so link to the page of its int form); every page renders through groff with
# all warnings on and none printed; man renders a sample at 80 columns without warnings; and
# `cmake --install` puts them in share/man/man3 of a fresh prefix, where man finds them.
# Usage: check_pages.sh BUILD_DIR MAN3_DIR. Exits 77 (skipped) without groff or man.
set -euo pipefail
build=$1 pages=$2
fail() { echo "FAIL: $*"; exit 1; }
for tool in groff man nm; do
  command -v $tool >/dev/null || { echo "skipped: $tool is not installed (Debian: groff-base, man-db, binutils)"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every exported function (text symbols, weak aliases included) has a page.
exported=$(nm -D --defined-only "$build/lib/libweft.so" | awk '$2 ~ /^[TWi]$/ && $3 ~ /^P?MPI_/ {print $3}')
[ "$(wc -l <<<"$exported")" -gt 1000 ] || fail "libweft.so exports only $(wc -l <<<"$exported") MPI functions?"
missing=0
for f in $exported; do
  [ -f "$pages/$f.3" ] || { echo "no page for $f"; missing=$((missing + 1)); }
done
[ $missing -eq 0 ] || fail "$missing exported functions have no page in $pages"

# Links resolve; real pages render with every groff warning enabled and none printed.
real=0
for page in "$pages"/*.3; do
  first=$(head -1 "$page")
  if [[ $first == ".so "* ]]; then
    [ -f "$pages/../${first#.so }" ] || fail "$page links to ${first#.so }, which does not exist"
    continue
  fi
  real=$((real + 1))
  out=$(groff -man -ww -z -rLL=80n "$page" 2>&1)
  [ -z "$out" ] || fail "groff warns on $(basename "$page"): $out"
done
echo "ok: $real pages and $(($(ls "$pages" | wc -l) - real)) links render without warnings"

# man itself, at 80 columns: a sample of kinds (collective, MPI_T, I/O, a value-returning call,
# a page reached through a link).
render() {  # render DIR PAGE: man's output of DIR/man3/PAGE.3, failing on any warning
  local out err
  out=$(cd "$1" && MANWIDTH=80 man --warnings -l "man3/$2.3" 2>"$work/err") || fail "man -l $2 failed"
  err=$(cat "$work/err")
  [ -z "$err" ] || fail "man warns on $2: $err"
  printf '%s\n' "$out"
}
for p in MPI_Send MPI_Allreduce MPI_T_cvar_read MPI_File_open MPI_Wtime PMPI_Bcast_c; do
  out=$(render "$pages/.." "$p")
  for section in NAME SYNOPSIS DESCRIPTION ERRORS "SEE ALSO"; do
    grep -q "^$section" <<<"$out" || fail "man $p has no $section section"
  done
  while IFS= read -r line; do
    [ ${#line} -le 80 ] || fail "man $p has a line of ${#line} columns: $line"
  done <<<"$out"
done
out=$(render "$pages/.." MPI_Allreduce)
grep -q "WEFT_ALLREDUCE_ALGORITHM" <<<"$out" || fail "MPI_Allreduce(3) does not say how to force an algorithm"
grep -q "recursive_doubling" <<<"$out" || fail "MPI_Allreduce(3) does not list its algorithms"
echo "ok: man renders the sample at 80 columns without warnings"

# Installed: the pages and links are under share/man/man3, where man -M finds them.
cmake --install "$build" --prefix "$work/prefix" >/dev/null
mandir=$(find "$work/prefix" -type d -path '*/man/man3' -print -quit)
[ -n "$mandir" ] || fail "the install has no man/man3"
[ "$(ls "$mandir" | wc -l)" -eq "$(ls "$pages" | wc -l)" ] || fail "the install has $(ls "$mandir" | wc -l) pages, the build $(ls "$pages" | wc -l)"
for p in MPI_Send PMPI_Send MPI_Send_c MPI_Comm_spawn; do
  found=$(man -M "$(dirname "$mandir")" -w 3 "$p") || fail "man -M does not find $p in the install"
  [[ $found == "$mandir/"* ]] || fail "man found $p at $found, not in the install"
done
out=$(MANWIDTH=80 man -M "$(dirname "$mandir")" 3 PMPI_Send 2>&1) || fail "man 3 PMPI_Send failed"
grep -Eq "MPI_Send, +MPI_Send_c" <<<"$out" || fail "man 3 PMPI_Send does not show MPI_Send's page"
echo "ok: installed in $mandir"
