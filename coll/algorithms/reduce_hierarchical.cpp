// Two-level reduce (coll/algorithms/node_levels.hpp): every node reduces to its leader (binomial;
// the root leads its own node), then the leaders reduce to the root (binomial). A non-commutative
// op needs each node's ranks consecutive: then both levels fold in rank order.
// Cost: ceil(log2 L)·(α + nβ + nγ) within a node for L ranks on the largest node, plus
// ceil(log2 N)·(α + nβ + nγ) across N nodes.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/node_levels.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const TwoLevels levels = two_levels(*a.nodes, a.rank, a.root);
  // A leader's node result waits in scratch for the second level; other ranks keep none.
  const BufRef partial = levels.leader() ? s.scratch(a.bytes) : recv_buf();
  const StepId reduced =
      append_algorithm(s, kReduceBinomial, level_args(a, CollKind::kReduce, levels.node),
                       send_buf(), partial, kNoStep, levels.node.ranks);
  if (!levels.leader()) return;
  append_algorithm(s, kReduceBinomial, level_args(a, CollKind::kReduce, levels.leaders), partial,
                   recv_buf(), reduced, levels.leaders.ranks);
}

Cost cost(const CollArgs& a) {
  const NodeMap& m = *a.nodes;
  const Cost node = kReduceBinomial.cost(part_args(a, CollKind::kReduce, m.largest_node(), 0));
  const Cost among = kReduceBinomial.cost(
      part_args(a, CollKind::kReduce, m.nodes(), 0, m.node_of[size_t(a.root)]));
  return two_level_cost({node}, {among});
}

}  // namespace

extern const Algorithm kReduceHierarchical{
    "hierarchical", CollKind::kReduce, reduction_spans_known_nodes, cost, build, true};

}  // namespace weft::coll
