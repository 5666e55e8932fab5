// Where a datatype's bytes lie: its typemap flattened into a short tree of strided loops, built
// as types are constructed so that a vector of a million doubles is one entry, not a million.
#pragma once
#include <cstddef>
#include <vector>

namespace weft {

// `count` iterations, `stride` bytes apart, the first at `offset` from the base of the enclosing
// iteration (or of the element). An iteration is `bytes` contiguous bytes when `body` is empty (a
// leaf), otherwise the segments of `body` placed relative to the iteration's base.
struct Segment {
  ptrdiff_t offset = 0;
  size_t count = 1;
  ptrdiff_t stride = 0;
  size_t bytes = 0;  // data bytes of one iteration
  std::vector<Segment> body;

  bool leaf() const { return body.empty(); }
  size_t total_bytes() const { return count * bytes; }
};

// The data of one element in typemap order (the order in which pack writes it).
using Layout = std::vector<Segment>;

// Appends `count` copies of `body`, `stride` bytes apart, the first at `offset`. Keeps the result
// short: empty parts vanish, single-iteration loops are inlined, a loop over one run becomes a
// strided run, back-to-back or evenly spaced runs merge, and runs whose stride equals their length
// become one run.
void append_repeat(Layout* out, ptrdiff_t offset, size_t count, ptrdiff_t stride,
                   const Layout& body);

// Data bytes of one element.
size_t layout_bytes(const Layout& layout);
// Number of segments in the tree (how much the flattened description holds).
size_t layout_entries(const Layout& layout);
// The lowest and one-past-highest byte the data touches (MPI's true bounds); false when the
// layout holds no data.
bool layout_data_bounds(const Layout& layout, ptrdiff_t* lo, ptrdiff_t* hi);

}  // namespace weft
