// Dissemination barrier (Hensgen, Finkel & Manber, "Two algorithms for barrier synchronization",
// 1988): in round k every rank sends an empty message to rank + 2^k and receives one from
// rank - 2^k; after ceil(log2 p) rounds every rank has heard, transitively, from every other.
// The round-k send waits for every earlier receive, not just the last: receives are posted up
// front and may complete out of order. Cost: ceil(log2 p)·α.
#include "coll/algorithms/all.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  StepId heard = kNoStep;  // every receive of the earlier rounds
  for (int distance = 1; distance < a.size; distance *= 2) {
    const int to = (a.rank + distance) % a.size;
    const int from = (a.rank - distance + a.size) % a.size;
    const StepId got = s.recv(from, recv_buf(), 0);
    s.send(to, send_buf(), 0, {heard});
    heard = heard == kNoStep ? got : s.join({heard, got});
  }
}

Cost cost(const CollArgs& a) { return {double(ceil_log2(a.size)), 0, 0}; }

}  // namespace

extern const Algorithm kBarrierDissemination{"dissemination", CollKind::kBarrier, nullptr, cost,
                                             build};

}  // namespace weft::coll
