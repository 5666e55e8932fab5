// Intercommunicator allgather(v): every rank sends its block to every rank of the other group and
// receives remote rank i's block as block i (MPI 4.1 §6.7, the linear form of the definition;
// works for allgatherv). Cost: q·α + (q·n + total bytes)·β for a remote group of q ranks.
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  for (int i = 0; i < a.remote_size; ++i) {
    // Start at a different remote rank on each rank, so that no rank is everyone's first.
    const int r = (a.rank + i) % a.remote_size;
    const Block& b = a.blocks[size_t(r)];
    s.recv(inter_peer(a, r), recv_buf(b.offset), b.bytes);
    s.send(inter_peer(a, r), send_buf(), a.bytes);
  }
}

Cost cost(const CollArgs& a) {
  const double q = a.remote_size;
  return {q, q * double(a.bytes) + double(a.total_block_bytes()), 0};
}

}  // namespace

extern const Algorithm kInterAllgather{"inter", CollKind::kAllgather, nullptr, cost, build};

}  // namespace weft::coll
