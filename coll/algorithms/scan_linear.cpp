// Linear inclusive scan, the reference form: rank r waits for x0 op ... op x(r-1) from rank r-1,
// folds its own input in on the right and passes the result on. Cost: (p-1)·(α + nβ + nγ).
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  StepId ready = s.copy(send_buf(), recv_buf(), a.bytes);
  if (a.rank > 0) {
    const BufRef before = s.scratch(a.bytes);
    const StepId got = s.recv(a.rank - 1, before, a.bytes);
    ready = s.reduce(before, recv_buf(), a.bytes, {got, ready});
  }
  if (a.rank + 1 < a.size) s.send(a.rank + 1, recv_buf(), a.bytes, {ready});
}

Cost cost(const CollArgs& a) {
  const double p = a.size, n = double(a.bytes);
  return {p - 1, (p - 1) * n, (p - 1) * n};
}

}  // namespace

extern const Algorithm kScanLinear{"linear", CollKind::kScan, nullptr, cost, build};

}  // namespace weft::coll
