// Walks a datatype's layout tree (runtime/datatype/layout.hpp) into its contiguous runs.
#include "runtime/datatype/runs.hpp"

#include "runtime/datatype/datatype.hpp"

namespace weft {
namespace {

void append(std::vector<Run>* out, ptrdiff_t offset, size_t bytes) {
  if (bytes == 0) return;
  if (!out->empty() && out->back().offset + ptrdiff_t(out->back().bytes) == offset) {
    out->back().bytes += bytes;
    return;
  }
  out->push_back({offset, bytes});
}

void walk(const Layout& layout, ptrdiff_t base, std::vector<Run>* out) {
  for (const Segment& s : layout) {
    for (size_t i = 0; i < s.count; ++i) {
      const ptrdiff_t at = base + s.offset + ptrdiff_t(i) * s.stride;
      if (s.leaf()) {
        append(out, at, s.bytes);
      } else {
        walk(s.body, at, out);
      }
    }
  }
}

}  // namespace

std::vector<Run> datatype_runs(const Datatype& type, size_t count) {
  std::vector<Run> runs;
  if (type.is_contiguous(count)) {
    append(&runs, type.true_lb(), type.size() * count);
    return runs;
  }
  for (size_t e = 0; e < count; ++e) walk(type.layout(), ptrdiff_t(e) * type.extent(), &runs);
  return runs;
}

}  // namespace weft
