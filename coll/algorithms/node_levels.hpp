// The two levels node-aware collectives are composed of (Karonis, de Supinski, Foster, Gropp,
// Lusk & Bresnahan, "Exploiting hierarchy in parallel computer networks to optimize collective
// operation performance", IPDPS 2000; the SMP-aware collectives of MPICH work the same way):
// the ranks of one node, and one leader per node. An existing algorithm runs at each level, its
// schedule built for the level's ranks and appended with its peers renamed to communicator ranks
// (append_algorithm with the level's ranks, coll/algorithms/fragments.hpp).
#pragma once
#include <initializer_list>
#include <vector>

#include "coll/algorithm.hpp"
#include "coll/algorithms/fragments.hpp"

namespace weft::coll {

struct Level {
  std::vector<int> ranks;  // communicator ranks, in level order
  int self = -1;           // this rank's index in `ranks`; -1: not a member
  int root = 0;            // the index of the level's root
  int size() const { return int(ranks.size()); }
};

// This rank's node (its ranks in rank order, rooted at the node's leader) and the leaders (one
// per node in node order, rooted at the root's node). The leader of the root's node is the root
// itself; of every other node, and of every node when `root` is -1 (no root), its lowest rank.
struct TwoLevels {
  Level node, leaders;
  bool leader() const { return leaders.self >= 0; }
};
TwoLevels two_levels(const NodeMap& map, int rank, int root);

// Whether `a` can run at two levels: it spans nodes and the node map covers its ranks.
bool spans_known_nodes(const CollArgs& a);
// The same for a reduction: the op must also be commutative, unless every node's ranks are
// consecutive, so that both levels fold in rank order.
bool reduction_spans_known_nodes(const CollArgs& a);

// The call `a` as the level's ranks see it (part_args, coll/algorithms/fragments.hpp).
CollArgs level_args(const CollArgs& a, CollKind kind, const Level& level);

// The cost of parts run one after another: those at the node level (counted within one node)
// and those among the leaders.
Cost two_level_cost(std::initializer_list<Cost> node_parts,
                    std::initializer_list<Cost> leader_parts);

}  // namespace weft::coll
