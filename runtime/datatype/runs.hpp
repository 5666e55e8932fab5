// The contiguous runs of `count` elements of a datatype, in typemap (pack) order, as
// (offset from the buffer, bytes) pairs: how one-sided communication reaches data at a target,
// where only offsets into the window mean anything.
#pragma once
#include <cstddef>
#include <vector>

namespace weft {

class Datatype;

struct Run {
  ptrdiff_t offset = 0;
  size_t bytes = 0;
};

// Runs of `count` elements, adjacent runs merged; empty when the type holds no data.
std::vector<Run> datatype_runs(const Datatype& type, size_t count);

}  // namespace weft
