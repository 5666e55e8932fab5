// Linear neighbourhood allgather (MPI 4.0 §8.6): every receive is posted at once, in the order
// that pairs each of them with the right message (CollArgs::source_posted), then this rank's
// block is sent to every destination. MPI_PROC_NULL neighbours move nothing. Also serves the v
// variant. Cost: one round, α + max(d·n, bytes received)·β for d destinations.
#include <algorithm>

#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  for (size_t k = 0; k < a.sources.size(); ++k) {
    const size_t i = a.source_posted(k);
    if (a.sources[i] < 0) continue;
    s.recv(a.sources[i], recv_buf(a.recv_blocks[i].offset), a.recv_blocks[i].bytes);
  }
  for (int to : a.destinations)
    if (to >= 0) s.send(to, send_buf(), a.bytes);
}

Cost cost(const CollArgs& a) {
  double received = 0;
  for (const Block& b : a.recv_blocks) received += double(b.bytes);
  return {1, std::max(double(a.destinations.size() * a.bytes), received), 0};
}

}  // namespace

extern const Algorithm kNeighborAllgatherLinear{"linear", CollKind::kNeighborAllgather, nullptr,
                                                cost, build};

}  // namespace weft::coll
