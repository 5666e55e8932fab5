// Graph topologies: validation of MPI_Graph_create's arrays and neighbour lookup.
#include "runtime/topology/graph.hpp"

#include <string>

#include "mpi.h"

namespace weft::topo {

std::span<const int> Graph::neighbors(int node) const {
  const int first = node == 0 ? 0 : index[size_t(node - 1)];
  return std::span<const int>(edges).subspan(size_t(first), size_t(index[size_t(node)] - first));
}

Status make_graph(int nnodes, const int* index, const int* edges, Graph* out) {
  out->index.assign(index, index + nnodes);
  int previous = 0;
  for (int i = 0; i < nnodes; ++i) {
    if (index[i] < previous) {
      return Status::error(MPI_ERR_ARG, "invalid index[" + std::to_string(i) +
                                            "]=" + std::to_string(index[i]) +
                                            " (index must be non-decreasing from >= 0; the "
                                            "previous entry is " +
                                            std::to_string(previous) + ")");
    }
    previous = index[i];
  }
  const int nedges = nnodes == 0 ? 0 : index[nnodes - 1];
  if (nedges > 0 && edges == nullptr) {
    return Status::error(MPI_ERR_ARG,
                         "invalid argument edges=NULL with " + std::to_string(nedges) + " edges");
  }
  for (int e = 0; e < nedges; ++e) {
    if (edges[e] < 0 || edges[e] >= nnodes) {
      return Status::error(MPI_ERR_RANK, "invalid edges[" + std::to_string(e) +
                                             "]=" + std::to_string(edges[e]) + " (the graph has " +
                                             std::to_string(nnodes) + " nodes)");
    }
  }
  out->edges.assign(edges, edges + nedges);
  return Status::success();
}

}  // namespace weft::topo
