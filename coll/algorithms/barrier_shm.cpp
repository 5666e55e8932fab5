// Node-region barrier: every rank writes the barrier's number in its arrival line of the
// communicator's shared region (coll/node_region.hpp try_arrive) and waits until every rank's line
// holds it. One hand-over; each rank writes one cache line and reads p-1, with no atomic update
// and no wait for a line to be free. Cost: α_region.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/region_parts.hpp"

namespace weft::coll {
namespace {

bool accepts(const CollArgs& a) { return region_takes(a, 0); }

void build(const CollArgs& a, Schedule& s) { s.arrive(a.size); }

Cost cost(const CollArgs&) {
  Cost c;
  c.syncs = 1;
  return c;
}

}  // namespace

extern const Algorithm kBarrierShm{"shm", CollKind::kBarrier, accepts, cost, build, false, true};

}  // namespace weft::coll
