// Two-level allgather(v) (coll/algorithms/node_levels.hpp). The blocks are laid out in scratch in
// node order, each node's blocks together in rank order; every node gathers its blocks at its
// leader (binomial for equal blocks, else linear), the leaders allgather their nodes' runs
// (recursive doubling), every leader broadcasts the whole layout on its node (binomial), and
// each rank copies the blocks to their places. Any placement of ranks on nodes.
// Cost: ceil(log2 L)·α + ((L-1)/L)·n_L·β + ceil(log2 L)·(α + nβ) + nβ (the copies) within a
// node, for L ranks and n_L bytes on the largest node, plus recursive doubling among N leaders.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/node_levels.hpp"

namespace weft::coll {
namespace {

// Where every rank's block lies in the node-ordered layout, and each node's run of them.
struct NodeLayout {
  std::vector<Block> block;  // by rank
  std::vector<Block> run;    // by node
  size_t total = 0;
};

NodeLayout node_layout(const CollArgs& a) {
  const NodeMap& m = *a.nodes;
  NodeLayout l;
  l.block.resize(size_t(a.size));
  for (int k = 0; k < m.nodes(); ++k) {
    const size_t start = l.total;
    for (int r : m.ranks_on(k)) {
      l.block[size_t(r)] = {l.total, a.blocks[size_t(r)].bytes};
      l.total += a.blocks[size_t(r)].bytes;
    }
    l.run.push_back({start, l.total - start});
  }
  return l;
}

// The node-level gather of node `k`'s blocks into its run.
CollArgs node_gather(const CollArgs& a, const NodeLayout& layout, int k, int self) {
  const std::span<const int> on = a.nodes->ranks_on(k);
  CollArgs g = part_args(a, CollKind::kGather, int(on.size()), self);
  g.uniform = a.uniform;
  for (int r : on) {
    const Block& b = layout.block[size_t(r)];
    g.blocks.push_back({b.offset - layout.run[size_t(k)].offset, b.bytes});
  }
  return g;
}

const Algorithm& gather_for(const CollArgs& a) {
  return a.uniform ? kGatherBinomial : kGatherLinear;
}

void build(const CollArgs& a, Schedule& s) {
  const NodeLayout layout = node_layout(a);
  const TwoLevels levels = two_levels(*a.nodes, a.rank, -1);
  const int k = a.nodes->node_of[size_t(a.rank)];
  const BufRef all = s.scratch(layout.total), mine = all.at(layout.run[size_t(k)].offset);
  StepId have = append_algorithm(s, gather_for(a), node_gather(a, layout, k, levels.node.self),
                                 send_buf(), mine, kNoStep, levels.node.ranks);
  if (levels.leader()) {
    CollArgs among = level_args(a, CollKind::kAllgather, levels.leaders);
    among.blocks = layout.run;
    among.uniform = false;
    have = append_algorithm(s, kAllgatherRecursiveDoubling, among, mine, all, have,
                            levels.leaders.ranks);
  }
  CollArgs bcast = level_args(a, CollKind::kBcast, levels.node);
  bcast.bytes = layout.total;
  have = append_algorithm(s, kBcastBinomial, bcast, all, all, have, levels.node.ranks);
  for (int r = 0; r < a.size; ++r) {
    const Block& b = layout.block[size_t(r)];
    s.copy(all.at(b.offset), recv_buf(a.blocks[size_t(r)].offset), b.bytes, {have});
  }
}

Cost cost(const CollArgs& a) {
  const NodeMap& m = *a.nodes;
  const NodeLayout layout = node_layout(a);
  int fullest = 0;  // the node with the most bytes
  for (int k = 1; k < m.nodes(); ++k)
    if (layout.run[size_t(k)].bytes > layout.run[size_t(fullest)].bytes) fullest = k;
  const CollArgs gather = node_gather(a, layout, fullest, 0);
  CollArgs among = part_args(a, CollKind::kAllgather, m.nodes(), 0);
  among.blocks = layout.run;
  CollArgs bcast = part_args(a, CollKind::kBcast, m.largest_node(), 0);
  bcast.bytes = layout.total;
  Cost copies;
  copies.bytes = double(layout.total);
  return two_level_cost({gather_for(a).cost(gather), kBcastBinomial.cost(bcast), copies},
                        {kAllgatherRecursiveDoubling.cost(among)});
}

}  // namespace

extern const Algorithm kAllgatherHierarchical{
    "hierarchical", CollKind::kAllgather, spans_known_nodes, cost, build, true};

}  // namespace weft::coll
