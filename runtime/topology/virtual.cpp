// Topology lookup on a communicator and the neighbour lists of each kind of topology.
#include "runtime/topology/virtual.hpp"

#include <string>

#include "mpi.h"

namespace weft::topo {

Status topology_of(const Comm& comm, int kind, const Topology** out) {
  const Topology* t = comm.topology.get();
  if (t != nullptr && (kind == 0 || t->kind == kind)) {
    *out = t;
    return Status::success();
  }
  return Status::error(MPI_ERR_TOPOLOGY,
                       comm.display_name() + " has " + topology_name(t ? t->kind : 0) +
                           "; this function needs " +
                           (kind == 0 ? "a process topology" : topology_name(kind)));
}

Neighbors neighbors_of(const Topology& t, int rank) {
  Neighbors n;
  switch (t.kind) {
    case MPI_CART:
      n.sources = t.cart.neighbors(rank);
      n.destinations = n.sources;
      n.cartesian = true;
      break;
    case MPI_GRAPH: {
      const auto adjacent = t.graph.neighbors(rank);
      n.sources.assign(adjacent.begin(), adjacent.end());
      n.destinations = n.sources;
      break;
    }
    case MPI_DIST_GRAPH:
      n.sources = t.dist_graph.sources;
      n.destinations = t.dist_graph.destinations;
      break;
  }
  return n;
}

const char* topology_name(int kind) {
  switch (kind) {
    case MPI_CART:
      return "a Cartesian topology";
    case MPI_GRAPH:
      return "a graph topology";
    case MPI_DIST_GRAPH:
      return "a distributed graph topology";
  }
  return "no topology";
}

}  // namespace weft::topo
