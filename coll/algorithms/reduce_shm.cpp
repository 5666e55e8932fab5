// Node-region reduce for small vectors on one node: every rank but the root posts its input in
// the communicator's shared region (coll/node_region.hpp); the root fetches them all and folds
// them in rank order. Cost at the root: α_region + (p+1)·nβ_region + (p-1)·nγ.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/region_parts.hpp"

namespace weft::coll {
namespace {

bool accepts(const CollArgs& a) { return region_takes(a, a.bytes); }

void build(const CollArgs& a, Schedule& s) {
  if (a.rank != a.root) {
    s.post(send_buf(), a.bytes, 1);
    return;
  }
  fold_posts(a, s, kNoStep);
}

}  // namespace

extern const Algorithm kReduceShm{"shm", CollKind::kReduce, accepts, fold_cost, build, false, true};

}  // namespace weft::coll
