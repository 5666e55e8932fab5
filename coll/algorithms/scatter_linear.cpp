// Linear scatter, also the reference form: the root sends every rank its block straight from its
// place. Works for scatterv. Cost: (p-1)·α + ((p-1)/p)·nβ at the root.
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  if (a.rank != a.root) {
    s.recv(a.root, recv_buf(), a.blocks[size_t(a.rank)].bytes);
    return;
  }
  for (int r = 0; r < a.size; ++r) {
    const Block& b = a.blocks[size_t(r)];
    if (r == a.root) {
      s.copy(send_buf(b.offset), recv_buf(), b.bytes);
    } else {
      s.send(r, send_buf(b.offset), b.bytes);
    }
  }
}

Cost cost(const CollArgs& a) {
  const double p = a.size;
  return {p - 1, double(a.total_block_bytes()) * (p - 1) / p, 0};
}

}  // namespace

extern const Algorithm kScatterLinear{"linear", CollKind::kScatter, nullptr, cost, build};

}  // namespace weft::coll
