// Two-level broadcast (coll/algorithms/node_levels.hpp): the root sends to the leader of every
// other node down a binomial tree of leaders, then every leader broadcasts on its node (binomial).
// The root leads its own node, so nothing moves twice. Cost: ceil(log2 N)·(α + nβ) across nodes
// for N nodes, plus ceil(log2 L)·(α + nβ) within a node for L ranks on the largest node.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/node_levels.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const TwoLevels levels = two_levels(*a.nodes, a.rank, a.root);
  StepId have = kNoStep;
  if (levels.leader()) {
    have = append_algorithm(s, kBcastBinomial, level_args(a, CollKind::kBcast, levels.leaders),
                            recv_buf(), recv_buf(), kNoStep, levels.leaders.ranks);
  }
  append_algorithm(s, kBcastBinomial, level_args(a, CollKind::kBcast, levels.node), recv_buf(),
                   recv_buf(), have, levels.node.ranks);
}

Cost cost(const CollArgs& a) {
  const Cost node = kBcastBinomial.cost(part_args(a, CollKind::kBcast, a.nodes->largest_node(), 0));
  const Cost among = kBcastBinomial.cost(part_args(a, CollKind::kBcast, a.nodes->nodes(), 0));
  return two_level_cost({node}, {among});
}

}  // namespace

extern const Algorithm kBcastHierarchical{
    "hierarchical", CollKind::kBcast, spans_known_nodes, cost, build, true};

}  // namespace weft::coll
