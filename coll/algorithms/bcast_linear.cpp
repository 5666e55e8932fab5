// Linear broadcast, the reference form: the root sends the whole message to every other rank.
// Cost: (p-1)·(α + nβ) at the root.
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  if (a.rank != a.root) {
    s.recv(a.root, recv_buf(), a.bytes);
    return;
  }
  for (int r = 0; r < a.size; ++r)
    if (r != a.root) s.send(r, recv_buf(), a.bytes);
}

Cost cost(const CollArgs& a) {
  const double p = a.size;
  return {p - 1, (p - 1) * double(a.bytes), 0};
}

}  // namespace

extern const Algorithm kBcastLinear{"linear", CollKind::kBcast, nullptr, cost, build};

}  // namespace weft::coll
