// Which node each rank of a communicator runs on: what the node-aware (two-level) collectives
// build their levels from and what the cost model charges other-node messages by. Pure data.
#pragma once
#include <span>
#include <vector>

namespace weft::coll {

struct NodeMap {
  std::vector<int> node_of;  // rank -> node; nodes numbered in the order of their lowest ranks
  std::vector<int> members;  // every rank, grouped by node, ascending within a node
  std::vector<int> first;    // node k's ranks are members[first[k] .. first[k + 1])
  bool contiguous = true;    // every node's ranks are consecutive (so node order is rank order)

  // `ids[r]` names rank r's node (any values; equal values, one node).
  static NodeMap from_ids(std::span<const int> ids);

  int nodes() const { return int(first.size()) - 1; }
  int size() const { return int(node_of.size()); }
  std::span<const int> ranks_on(int node) const {
    return {members.data() + first[size_t(node)],
            size_t(first[size_t(node) + 1] - first[size_t(node)])};
  }
  // The most ranks any node has.
  int largest_node() const;
};

}  // namespace weft::coll
