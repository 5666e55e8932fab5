// Node-region broadcast for small messages on one node: the root posts the data once in the
// communicator's shared region (coll/node_region.hpp) and every other rank copies it from
// there. Cost: α_region + 2nβ_region.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/region_parts.hpp"

namespace weft::coll {
namespace {

bool accepts(const CollArgs& a) { return region_takes(a, a.bytes); }

void build(const CollArgs& a, Schedule& s) {
  if (a.rank == a.root) {
    s.post(recv_buf(), a.bytes, a.size - 1);
  } else {
    s.fetch(a.root, recv_buf(), a.bytes);
  }
}

Cost cost(const CollArgs& a) {
  Cost c;
  c.syncs = 1;
  c.region_bytes = 2 * double(a.bytes);
  return c;
}

}  // namespace

extern const Algorithm kBcastShm{"shm", CollKind::kBcast, accepts, cost, build, false, true};

}  // namespace weft::coll
