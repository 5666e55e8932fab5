// Intercommunicator gather(v): every rank of the other group sends its block straight to the
// root, which receives block i from remote rank i (MPI 4.1 §6.5, the linear form of the
// definition). Cost at the root: q·α + (total bytes)·β for a remote group of q ranks.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/inter_parts.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) { build_inter_rooted_linear(a, s, true); }

}  // namespace

extern const Algorithm kInterGather{"inter", CollKind::kGather, nullptr, inter_rooted_linear_cost,
                                    build};

}  // namespace weft::coll
