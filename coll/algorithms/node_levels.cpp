// Levels of the node map, and the arguments and costs of the algorithms run at them.
#include "coll/algorithms/node_levels.hpp"

#include <algorithm>

namespace weft::coll {

TwoLevels two_levels(const NodeMap& map, int rank, int root) {
  TwoLevels t;
  const int mine = map.node_of[size_t(rank)];
  const int root_node = root >= 0 ? map.node_of[size_t(root)] : -1;
  for (int k = 0; k < map.nodes(); ++k) {
    const std::span<const int> on = map.ranks_on(k);
    const int leader = k == root_node ? root : on.front();
    if (leader == rank) t.leaders.self = k;
    t.leaders.ranks.push_back(leader);
    if (k != mine) continue;
    t.node.ranks.assign(on.begin(), on.end());
    t.node.self = int(std::find(on.begin(), on.end(), rank) - on.begin());
    t.node.root = int(std::find(on.begin(), on.end(), leader) - on.begin());
  }
  t.leaders.root = std::max(root_node, 0);
  return t;
}

bool spans_known_nodes(const CollArgs& a) {
  return spans_nodes(a) && a.nodes->size() == a.size && a.remote_size == 0;
}

bool reduction_spans_known_nodes(const CollArgs& a) {
  return spans_known_nodes(a) && (a.commutative || a.nodes->contiguous);
}

CollArgs level_args(const CollArgs& a, CollKind kind, const Level& level) {
  return part_args(a, kind, level.size(), level.self, level.root);
}

Cost two_level_cost(std::initializer_list<Cost> node_parts,
                    std::initializer_list<Cost> leader_parts) {
  Cost total;
  for (const Cost& c : node_parts) {
    total.rounds += c.rounds;
    total.bytes += c.bytes;
    total.reduced += c.reduced;
    total.node_rounds += c.rounds;
    total.node_bytes += c.bytes;
  }
  for (const Cost& c : leader_parts) {
    total.rounds += c.rounds;
    total.bytes += c.bytes;
    total.reduced += c.reduced;
  }
  return total;
}

}  // namespace weft::coll
