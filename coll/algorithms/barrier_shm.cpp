// Node-region barrier: every rank posts an empty record in the communicator's shared region
// (coll/node_region.hpp) and waits to see every other rank's. One hand-over; each rank reads
// p-1 cache lines. Cost: α_region.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/region_parts.hpp"

namespace weft::coll {
namespace {

bool accepts(const CollArgs& a) { return region_takes(a, 0); }

void build(const CollArgs& a, Schedule& s) {
  s.post(recv_buf(), 0, a.size - 1);
  for (int r = 0; r < a.size; ++r)
    if (r != a.rank) s.fetch(r, recv_buf(), 0);
}

Cost cost(const CollArgs&) {
  Cost c;
  c.syncs = 1;
  return c;
}

}  // namespace

extern const Algorithm kBarrierShm{"shm", CollKind::kBarrier, accepts, cost, build, false, true};

}  // namespace weft::coll
