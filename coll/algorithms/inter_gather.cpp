// Intercommunicator gather(v): every rank of the other group sends its block straight to the
// root, which receives block i from remote rank i (MPI 4.1 §6.5, the linear form of the
// definition). Cost at the root: q·α + (total bytes)·β for a remote group of q ranks.
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  if (a.root == CollArgs::kRootHere) {
    for (int r = 0; r < a.remote_size; ++r) {
      const Block& b = a.blocks[size_t(r)];
      s.recv(inter_peer(a, r), recv_buf(b.offset), b.bytes);
    }
    return;
  }
  if (a.root != CollArgs::kRootNone) s.send(inter_peer(a, a.root), send_buf(), a.bytes);
}

Cost cost(const CollArgs& a) {
  return {double(a.remote_size), double(a.total_block_bytes() + a.bytes), 0};
}

}  // namespace

extern const Algorithm kInterGather{"inter", CollKind::kGather, nullptr, cost, build};

}  // namespace weft::coll
