// Two-level allreduce (coll/algorithms/node_levels.hpp): every node reduces to its leader
// (binomial), the leaders allreduce among themselves (recursive doubling), and every leader
// broadcasts the result on its node (binomial). Only the middle step crosses nodes, in
// ceil(log2 N) rounds for N nodes instead of a flat algorithm's rounds over all p ranks. A
// non-commutative op needs each node's ranks consecutive: then both levels fold in rank order.
// Cost: 2·ceil(log2 L)·(α + nβ) + ceil(log2 L)·nγ within a node, for L ranks on the largest node,
// plus recursive doubling among the N leaders.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/node_levels.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const TwoLevels levels = two_levels(*a.nodes, a.rank, -1);
  const CollArgs reduce = level_args(a, CollKind::kReduce, levels.node);
  StepId reduced = append_algorithm(s, kReduceBinomial, reduce, send_buf(), recv_buf(), kNoStep,
                                    levels.node.ranks);
  if (levels.leader()) {
    CollArgs among = level_args(a, CollKind::kAllreduce, levels.leaders);
    among.in_place = true;
    reduced = append_algorithm(s, kAllreduceRecursiveDoubling, among, recv_buf(), recv_buf(),
                               reduced, levels.leaders.ranks);
  }
  append_algorithm(s, kBcastBinomial, level_args(a, CollKind::kBcast, levels.node), recv_buf(),
                   recv_buf(), reduced, levels.node.ranks);
}

Cost cost(const CollArgs& a) {
  const int largest = a.nodes->largest_node();
  const Cost reduce = kReduceBinomial.cost(part_args(a, CollKind::kReduce, largest, 0));
  const Cost bcast = kBcastBinomial.cost(part_args(a, CollKind::kBcast, largest, 0));
  const Cost among =
      kAllreduceRecursiveDoubling.cost(part_args(a, CollKind::kAllreduce, a.nodes->nodes(), 0));
  return two_level_cost({reduce, bcast}, {among});
}

}  // namespace

extern const Algorithm kAllreduceHierarchical{
    "hierarchical", CollKind::kAllreduce, reduction_spans_known_nodes, cost, build, true};

}  // namespace weft::coll
