// Pipelined chain broadcast: relative ranks form a chain 0 -> 1 -> ... -> p-1 and the message
// flows down it in segments, so every link is busy at once once the pipeline fills.
// Cost with s segments of n/s bytes: (p - 2 + s)·(α + (n/s)β).
#include "coll/algorithms/all.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

size_t segment_size(const CollArgs& a) {
  const size_t elems = a.segment_bytes / a.elem_size;
  return (elems > 0 ? elems : 1) * a.elem_size;
}

void build(const CollArgs& a, Schedule& s) {
  const int r = to_relative(a.rank, a.root, a.size);
  const int prev = to_absolute(r - 1, a.root, a.size);
  const int next = to_absolute(r + 1, a.root, a.size);
  const size_t seg = segment_size(a);
  const size_t n = a.bytes == 0 ? 1 : pieces_in(a.bytes, seg);
  for (size_t j = 0; j < n; ++j) {
    const Range piece = piece_of(a.bytes, seg, j);
    StepId have = kNoStep;
    if (r != 0) have = s.recv(prev, recv_buf(piece.first), piece.count);
    if (r + 1 < a.size) s.send(next, recv_buf(piece.first), piece.count, {have});
  }
}

Cost cost(const CollArgs& a) {
  const double segs = a.bytes == 0 ? 1 : double(pieces_in(a.bytes, segment_size(a)));
  const double hops = a.size > 1 ? a.size - 2 + segs : 0;
  return {hops, hops * double(a.bytes) / segs, 0};
}

}  // namespace

extern const Algorithm kBcastPipeline{"pipeline", CollKind::kBcast, nullptr, cost, build};

}  // namespace weft::coll
