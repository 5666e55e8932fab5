// Intercommunicator scatter(v): the root sends remote rank i its block i straight from its
// place; every rank of the other group receives its block from the root (MPI 4.1 §6.6, the
// linear form of the definition). Cost at the root: q·α + (total bytes)·β.
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  if (a.root == CollArgs::kRootHere) {
    for (int r = 0; r < a.remote_size; ++r) {
      const Block& b = a.blocks[size_t(r)];
      s.send(inter_peer(a, r), send_buf(b.offset), b.bytes);
    }
    return;
  }
  if (a.root != CollArgs::kRootNone) s.recv(inter_peer(a, a.root), recv_buf(), a.bytes);
}

Cost cost(const CollArgs& a) {
  return {double(a.remote_size), double(a.total_block_bytes() + a.bytes), 0};
}

}  // namespace

extern const Algorithm kInterScatter{"inter", CollKind::kScatter, nullptr, cost, build};

}  // namespace weft::coll
