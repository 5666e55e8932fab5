// Graph process topologies: the whole graph of MPI_Graph_create, which every process knows
// (MPI 4.0 §8.5.3), and the distributed graph of MPI_Dist_graph_create(_adjacent), of which each
// process knows only its own in- and out-edges (§8.5.4).
#pragma once
#include <span>
#include <vector>

#include "runtime/status.hpp"

namespace weft::topo {

struct Graph {
  // MPI_Graph_create's arrays: node i's neighbours are edges[index[i-1] .. index[i]) (from 0
  // for node 0). Self-loops and repeated edges are allowed.
  std::vector<int> index, edges;

  int nnodes() const { return int(index.size()); }
  std::span<const int> neighbors(int node) const;
};

// The graph of `nnodes` nodes that `index` and `edges` describe: MPI_ERR_ARG when index is
// negative or decreasing, MPI_ERR_RANK when an edge names no node.
Status make_graph(int nnodes, const int* index, const int* edges, Graph* out);

struct DistGraph {
  std::vector<int> sources, destinations;  // in- and out-neighbours, in their standard order
  bool weighted = false;
  std::vector<int> source_weights, destination_weights;  // when weighted
};

}  // namespace weft::topo
