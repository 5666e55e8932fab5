// Linear exclusive scan, the reference form: rank r receives x0 op ... op x(r-1) from rank r-1
// as its result and passes that op x(r) on; rank 0 passes its input. Cost: (p-1)·(α + nβ + nγ).
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  if (a.rank == 0) {
    if (a.size > 1) s.send(1, send_buf(), a.bytes);
    return;
  }
  // The input is copied aside first: the result may overwrite it in place.
  const BufRef next = s.scratch(a.bytes);
  const StepId copied = s.copy(send_buf(), next, a.bytes);
  const StepId got = s.recv(a.rank - 1, recv_buf(), a.bytes, {copied});
  if (a.rank + 1 < a.size) {
    const StepId folded = s.reduce(recv_buf(), next, a.bytes, {got});  // next = before op mine
    s.send(a.rank + 1, next, a.bytes, {folded});
  }
}

Cost cost(const CollArgs& a) {
  const double p = a.size, n = double(a.bytes);
  return {p - 1, (p - 1) * n, (p - 1) * n};
}

}  // namespace

extern const Algorithm kExscanLinear{"linear", CollKind::kExscan, nullptr, cost, build};

}  // namespace weft::coll
