// The process topology a communicator may carry (MPI 4.0 chapter 8), shared by its duplicates,
// and the neighbour lists the neighbourhood collectives work on.
#pragma once
#include <vector>

#include "runtime/comm/comm.hpp"
#include "runtime/topology/cart.hpp"
#include "runtime/topology/graph.hpp"

namespace weft {

struct Topology {
  int kind = 0;                // MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH, as MPI_Topo_test says
  topo::CartGrid cart;         // kind MPI_CART
  topo::Graph graph;           // kind MPI_GRAPH
  topo::DistGraph dist_graph;  // kind MPI_DIST_GRAPH
};

namespace topo {

// The topology of `comm` if it has one of `kind` (0: any kind); otherwise MPI_ERR_TOPOLOGY
// naming the communicator and what it has.
Status topology_of(const Comm& comm, int kind, const Topology** out);

// A rank's neighbours as the neighbourhood collectives see them (MPI 4.0 §8.6): receive block
// i comes from sources[i], send block j goes to destinations[j]; MPI_PROC_NULL entries keep
// their block, which nothing fills or reads.
struct Neighbors {
  std::vector<int> sources, destinations;
  // A Cartesian neighbourhood: both lists are the (negative, positive) neighbour pairs of each
  // dimension, and the block sent in one direction lands in the receiver's block of the other
  // direction (block s of the sender is block s^1 of the receiver: MPI 4.0 §8.6 and its errata
  // of MPI 3.1, which matter when a periodic dimension has 1 or 2 ranks).
  bool cartesian = false;
};
Neighbors neighbors_of(const Topology& t, int rank);

// "a Cartesian topology" for MPI_CART, and so on; "no topology" for 0.
const char* topology_name(int kind);

}  // namespace topo
}  // namespace weft
