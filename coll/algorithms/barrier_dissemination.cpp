// Dissemination barrier (Hensgen, Finkel & Manber, "Two algorithms for barrier synchronization",
// 1988): in round k every rank sends an empty message to rank + 2^k and receives one from
// rank - 2^k; after ceil(log2 p) rounds every rank has heard, transitively, from every other.
// Cost: ceil(log2 p)·α.
#include "coll/algorithms/all.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  StepId heard = kNoStep;  // the previous round's receive
  for (int distance = 1; distance < a.size; distance *= 2) {
    const int to = (a.rank + distance) % a.size;
    const int from = (a.rank - distance + a.size) % a.size;
    const StepId got = s.recv(from, recv_buf(), 0);
    s.send(to, send_buf(), 0, {heard});
    heard = got;
  }
}

Cost cost(const CollArgs& a) { return {double(ceil_log2(a.size)), 0, 0}; }

}  // namespace

extern const Algorithm kBarrierDissemination{"dissemination", CollKind::kBarrier, nullptr, cost,
                                             build};

}  // namespace weft::coll
