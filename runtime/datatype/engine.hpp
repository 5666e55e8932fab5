// The pack engine: a committed datatype's layout compiled into one flat array of loops, and the
// copy between typed memory and packed bytes that runs from it, with fixed-size fast paths.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/datatype/layout.hpp"

namespace weft {

// A Segment of the layout in compiled form: children are loops[first, first + n); n == 0 is a run.
struct Loop {
  ptrdiff_t offset = 0;
  ptrdiff_t stride = 0;
  size_t count = 0;
  size_t bytes = 0;
  uint32_t first = 0;
  uint32_t n = 0;
};

class PackProgram {
 public:
  PackProgram() = default;
  // Compiles the layout of a type whose elements are `extent` bytes apart and hold `size` bytes.
  PackProgram(const Layout& layout, ptrdiff_t extent, size_t size);

  // Copies bytes [first, first + len) of the packed form of `count` elements at `buf` (an address;
  // 0 is MPI_BOTTOM) to `packed`, or back. first + len <= count × size.
  void pack(const void* buf, size_t count, size_t first, size_t len, void* packed) const;
  void unpack(const void* packed, size_t count, size_t first, size_t len, void* buf) const;

  size_t loops() const { return loops_.size(); }

 private:
  // The loop over `count` elements, folded into a single run or strided run where it can be.
  Loop element_loop(size_t count) const;

  std::vector<Loop> loops_;  // the element's top-level loops first
  uint32_t roots_ = 0;
  ptrdiff_t extent_ = 0;
  size_t size_ = 0;
};

}  // namespace weft
