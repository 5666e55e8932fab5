// Intercommunicator scatter(v): the root sends remote rank i its block i straight from its
// place; every rank of the other group receives its block from the root (MPI 4.1 §6.6, the
// linear form of the definition). Cost at the root: q·α + (total bytes)·β.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/inter_parts.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) { build_inter_rooted_linear(a, s, false); }

}  // namespace

extern const Algorithm kInterScatter{"inter", CollKind::kScatter, nullptr, inter_rooted_linear_cost,
                                     build};

}  // namespace weft::coll
