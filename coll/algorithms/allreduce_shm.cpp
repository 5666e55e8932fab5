// Node-region allreduce for small vectors on one node: every rank posts its input once in the
// communicator's shared region (coll/node_region.hpp), fetches every other rank's and folds all
// of them in rank order, so all ranks compute the same bits without exchanging results. One
// hand-over instead of log p message rounds; each rank reads (p-1)·n bytes, so it suits small n.
// Small vectors on 3 ranks or more go through the ranks' arrival lines instead of posts (see
// folds_arrivals). Cost: α_region + (p+1)·nβ_region + (p-1)·nγ.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/region_parts.hpp"

namespace weft::coll {
namespace {

bool accepts(const CollArgs& a) { return region_takes(a, a.bytes); }

void build(const CollArgs& a, Schedule& s) {
  if (folds_arrivals(a.bytes, a.size)) {
    fold_arrivals(a, s);
  } else {
    fold_posts(a, s, s.post(send_buf(), a.bytes, a.size - 1));
  }
}

}  // namespace

extern const Algorithm kAllreduceShm{"shm", CollKind::kAllreduce, accepts, fold_cost, build, false,
                                     true};

}  // namespace weft::coll
