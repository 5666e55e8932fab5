// Linear neighbourhood all-to-all (MPI 4.0 §8.6): every receive is posted at once, in the order
// that pairs each of them with the right message (CollArgs::source_posted), then every send, in
// destination order. Blocks of MPI_PROC_NULL neighbours move nothing. Also serves the v and w
// variants. Cost: one round, α + max(bytes sent, bytes received)·β.
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
  for (size_t j = 0; j < a.destinations.size(); ++j) {
    if (a.destinations[j] < 0) continue;
    s.send(a.destinations[j], send_buf(a.send_blocks[j].offset), a.send_blocks[j].bytes);
  }
}

Cost cost(const CollArgs& a) {
  double sent = 0, received = 0;
  for (const Block& b : a.send_blocks) sent += double(b.bytes);
  for (const Block& b : a.recv_blocks) received += double(b.bytes);
  return {1, std::max(sent, received), 0};
}

}  // namespace

extern const Algorithm kNeighborAlltoallLinear{"linear", CollKind::kNeighborAlltoall, nullptr, cost,
                                               build};

}  // namespace weft::coll
