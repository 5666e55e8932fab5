// Linear barrier, the reference form: every rank sends an empty message to rank 0, which answers
// each once it has heard from all. Cost: 2(p-1)·α at rank 0.
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  if (a.rank != 0) {
    s.send(0, send_buf(), 0);
    s.recv(0, recv_buf(), 0);
    return;
  }
  std::vector<StepId> arrivals;
  for (int r = 1; r < a.size; ++r) arrivals.push_back(s.recv(r, recv_buf(), 0));
  const StepId all = s.join(arrivals);
  for (int r = 1; r < a.size; ++r) s.send(r, send_buf(), 0, {all});
}

Cost cost(const CollArgs& a) { return {2.0 * (a.size - 1), 0, 0}; }

}  // namespace

extern const Algorithm kBarrierLinear{"linear", CollKind::kBarrier, nullptr, cost, build};

}  // namespace weft::coll
