// Communicators with a process topology, built collectively over a parent: MPI_Cart_create,
// MPI_Cart_sub, MPI_Graph_create and MPI_Dist_graph_create(_adjacent). Weft keeps the parent's
// rank order: reordering is allowed, never required (MPI 4.0 §8.5.1).
#pragma once
#include <memory>
#include <span>

#include "runtime/topology/virtual.hpp"

namespace weft::topo {

// Collective over `parent`: its first `nodes` ranks get a communicator of their own carrying
// `topology`, the others MPI_COMM_NULL.
Status create_on_first(Comm& parent, int nodes, std::shared_ptr<const Topology> topology,
                       MPI_Comm* out);

// MPI_Cart_sub on a communicator with Cartesian `grid`: each process gets the communicator of
// its subgrid along the dimensions whose `remain` entry is non-zero.
Status cart_sub(Comm& parent, const CartGrid& grid, std::span<const int> remain, MPI_Comm* out);

struct Edge {
  int source = 0, destination = 0, weight = 1;
};
// MPI_Dist_graph_create: each process gives some edges of the graph (ranks of `parent`); every
// process learns the edges that start or end at it (an all-to-all of counts, then of edges) and
// gets a communicator over all of `parent`'s ranks. A process's neighbours are listed by the
// rank that gave the edge, then in the order it gave them, so the k-th edge from A to B is the
// k-th in A's destinations and in B's sources alike. `weighted`: this process gave weights; the
// graph is weighted if any process did.
Status dist_graph_create(Comm& parent, std::span<const Edge> edges, bool weighted, MPI_Comm* out);

}  // namespace weft::topo
