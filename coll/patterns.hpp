// Pure rank arithmetic shared by the algorithms: powers of two, rotations around a root,
// binomial trees and even block partitions. No I/O, no state.
#pragma once
#include <cstddef>

namespace weft::coll {

// The largest power of two <= n (n >= 1).
constexpr int pow2_floor(int n) {
  int p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

// ceil(log2(n)) for n >= 1.
constexpr int ceil_log2(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

// Rank numbering rotated so that `root` becomes 0, and back.
constexpr int to_relative(int rank, int root, int size) { return (rank - root + size) % size; }
constexpr int to_absolute(int relative, int root, int size) { return (relative + root) % size; }

// Binomial tree over relative ranks 0..size-1 rooted at 0: the parent of r > 0 is r with its
// lowest set bit cleared; the children of r are r + m for the powers of two m below r's lowest
// set bit (all of them for r = 0) with r + m < size.
constexpr int lowest_bit(int r) { return r & -r; }
constexpr int binomial_parent(int r) { return r - lowest_bit(r); }
// The first mask to try for r's children, counting down: children are r + m for m = top, top/2,
// ..., 1 with r + m < size.
constexpr int binomial_child_top(int r, int size) {
  const int limit = r == 0 ? pow2_floor(size) * 2 : lowest_bit(r);
  return limit / 2;
}
// Number of relative ranks in the subtree rooted at r.
constexpr int binomial_subtree(int r, int size) {
  const int span = r == 0 ? pow2_floor(size) * 2 : lowest_bit(r);
  return (r + span < size ? r + span : size) - r;
}

// Block i of an even split of n items over `parts` blocks; the first n % parts blocks get one
// more item.
struct Range {
  size_t first = 0, count = 0;
};
constexpr Range block_of(size_t n, int parts, int i) {
  const size_t base = n / size_t(parts), extra = n % size_t(parts), idx = size_t(i);
  return {idx * base + (idx < extra ? idx : extra), base + (idx < extra ? 1 : 0)};
}

// Piece j of a run of `bytes` cut into pieces of at most `piece` bytes (a multiple of the
// element size); pieces past the end are empty.
constexpr Range piece_of(size_t bytes, size_t piece, size_t j) {
  const size_t first = j * piece;
  if (first >= bytes) return {bytes, 0};
  return {first, bytes - first < piece ? bytes - first : piece};
}
constexpr size_t pieces_in(size_t bytes, size_t piece) { return (bytes + piece - 1) / piece; }

}  // namespace weft::coll
