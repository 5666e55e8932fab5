// Linear gather, also the reference form: every rank sends its block to the root, which receives
// each straight into its place. Works for gatherv. Cost: (p-1)·α + ((p-1)/p)·nβ at the root.
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  if (a.rank != a.root) {
    s.send(a.root, send_buf(), a.blocks[size_t(a.rank)].bytes);
    return;
  }
  for (int r = 0; r < a.size; ++r) {
    const Block& b = a.blocks[size_t(r)];
    if (r == a.root) {
      s.copy(send_buf(), recv_buf(b.offset), b.bytes);
    } else {
      s.recv(r, recv_buf(b.offset), b.bytes);
    }
  }
}

Cost cost(const CollArgs& a) {
  const double p = a.size;
  return {p - 1, double(a.total_block_bytes()) * (p - 1) / p, 0};
}

}  // namespace

extern const Algorithm kGatherLinear{"linear", CollKind::kGather, nullptr, cost, build};

}  // namespace weft::coll
