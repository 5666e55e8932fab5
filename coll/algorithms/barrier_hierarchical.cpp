// Two-level barrier (coll/algorithms/node_levels.hpp): a dissemination barrier on every node,
// then one among the node leaders, then every leader releases its node with an empty binomial
// broadcast. Cost: 2·ceil(log2 L)·α within a node for L ranks on the largest node, plus
// ceil(log2 N)·α across N nodes.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/node_levels.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const TwoLevels levels = two_levels(*a.nodes, a.rank, -1);
  StepId arrived =
      append_algorithm(s, kBarrierDissemination, level_args(a, CollKind::kBarrier, levels.node),
                       send_buf(), recv_buf(), kNoStep, levels.node.ranks);
  if (levels.leader()) {
    arrived = append_algorithm(s, kBarrierDissemination,
                               level_args(a, CollKind::kBarrier, levels.leaders), send_buf(),
                               recv_buf(), arrived, levels.leaders.ranks);
  }
  CollArgs release = level_args(a, CollKind::kBcast, levels.node);
  release.bytes = 0;
  append_algorithm(s, kBcastBinomial, release, recv_buf(), recv_buf(), arrived, levels.node.ranks);
}

Cost cost(const CollArgs& a) {
  const int largest = a.nodes->largest_node();
  const Cost node = kBarrierDissemination.cost(part_args(a, CollKind::kBarrier, largest, 0));
  CollArgs release = part_args(a, CollKind::kBcast, largest, 0);
  release.bytes = 0;
  const Cost among =
      kBarrierDissemination.cost(part_args(a, CollKind::kBarrier, a.nodes->nodes(), 0));
  return two_level_cost({node, kBcastBinomial.cost(release)}, {among});
}

}  // namespace

extern const Algorithm kBarrierHierarchical{
    "hierarchical", CollKind::kBarrier, spans_known_nodes, cost, build, true};

}  // namespace weft::coll
