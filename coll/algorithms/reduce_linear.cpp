// Linear reduce, the reference form: every rank sends its vector to the root, which folds them in
// rank order, ((x0 op x1) op x2) ..., so it is right for any op. Cost: (p-1)·(α + nβ + nγ).
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  if (a.rank != a.root) {
    s.send(a.root, send_buf(), a.bytes);
    return;
  }
  // One slot per rank; slot r ends holding x0 op ... op xr.
  const BufRef slots = s.scratch(size_t(a.size) * a.bytes);
  auto slot = [&](int r) { return slots.at(size_t(r) * a.bytes); };
  std::vector<StepId> arrived(size_t(a.size));
  for (int r = 0; r < a.size; ++r) {
    arrived[size_t(r)] = r == a.root ? s.copy(send_buf(), slot(r), a.bytes)
                                     : s.recv(r, slot(r), a.bytes);
  }
  StepId folded = arrived[0];
  for (int r = 1; r < a.size; ++r)
    folded = s.reduce(slot(r - 1), slot(r), a.bytes, {folded, arrived[size_t(r)]});
  s.copy(slot(a.size - 1), recv_buf(), a.bytes, {folded});
}

Cost cost(const CollArgs& a) {
  const double p = a.size, n = double(a.bytes);
  return {p - 1, (p - 1) * n, (p - 1) * n};
}

}  // namespace

extern const Algorithm kReduceLinear{"linear", CollKind::kReduce, nullptr, cost, build};

}  // namespace weft::coll
