// Process topologies, graph part (MPI 4.0 §8.5.3, §8.5.5, §8.5.7): MPI_Graph_create and
// MPI_Graph_map, and the graph inquiries.
#include <algorithm>
#include <string>

#include "runtime/c_api/guard.hpp"
#include "runtime/topology/create.hpp"

using weft::Comm;
using weft::Status;
using weft::Topology;
using weft::world;
namespace capi = weft::capi;
using capi::comm_arg;
namespace topo = weft::topo;

namespace {

// The graph of `c`, or MPI_ERR_TOPOLOGY.
Status graph_of(const Comm& c, const topo::Graph** out) {
  const Topology* t = nullptr;
  WEFT_TRY(topo::topology_of(c, MPI_GRAPH, &t));
  *out = &t->graph;
  return Status::success();
}

// MPI_Graph_create's and MPI_Graph_map's graph: nnodes nodes, at most the ranks of `c`.
Status graph_arg(const Comm& c, int nnodes, const int* index, const int* edges, topo::Graph* out) {
  if (nnodes < 0 || nnodes > c.size) {
    return Status::error(MPI_ERR_ARG, "invalid nnodes=" + std::to_string(nnodes) + " (" +
                                          c.display_name() + " has " + std::to_string(c.size) +
                                          " ranks)");
  }
  if (nnodes > 0) WEFT_TRY(capi::check_not_null(index, "index"));
  return topo::make_graph(nnodes, index, edges, out);
}

Status rank_arg(const Comm& c, int rank) {
  if (rank >= 0 && rank < c.size) return Status::success();
  return Status::error(MPI_ERR_RANK, "invalid rank=" + std::to_string(rank) + " (" +
                                         c.display_name() + " has " + std::to_string(c.size) +
                                         " ranks)");
}

// An output array of `max` entries (argument `arg`): at least 0, and non-null when any of the
// `available` values will be written to it. Returns how many will be.
Status output_arg(int max, const char* max_arg, const void* array, const char* arg,
                  size_t available, size_t* writes) {
  if (max < 0) {
    return Status::error(MPI_ERR_ARG, std::string("invalid ") + max_arg + "=" +
                                          std::to_string(max) + " (must be >= 0)");
  }
  *writes = std::min(size_t(max), available);
  return *writes > 0 ? capi::check_not_null(array, arg) : Status::success();
}

}  // namespace

extern "C" {

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int* index, const int* edges, int,
                      MPI_Comm* comm_graph) {
  constexpr const char* fn = "MPI_Graph_create";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm_old, fn, capi::intra_comm_arg(comm_old, "comm_old", &c));
  auto t = std::make_shared<Topology>();
  t->kind = MPI_GRAPH;
  WEFT_CHECK(comm_old, fn, graph_arg(*c, nnodes, index, edges, &t->graph));
  WEFT_CHECK(comm_old, fn, capi::check_not_null(comm_graph, "comm_graph"));
  return capi::report(comm_old, fn, topo::create_on_first(*c, nnodes, std::move(t), comm_graph));
}

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int* index, const int* edges, int* newrank) {
  constexpr const char* fn = "MPI_Graph_map";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  topo::Graph graph;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, graph_arg(*c, nnodes, index, edges, &graph));
  WEFT_CHECK(comm, fn, capi::check_not_null(newrank, "newrank"));
  *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;  // the identity map
  return MPI_SUCCESS;
}

int PMPI_Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges) {
  constexpr const char* fn = "MPI_Graphdims_get";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  const topo::Graph* g = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, graph_of(*c, &g));
  WEFT_CHECK(comm, fn, capi::check_not_null(nnodes, "nnodes"));
  WEFT_CHECK(comm, fn, capi::check_not_null(nedges, "nedges"));
  *nnodes = g->nnodes();
  *nedges = int(g->edges.size());
  return MPI_SUCCESS;
}

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int* index, int* edges) {
  constexpr const char* fn = "MPI_Graph_get";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  const topo::Graph* g = nullptr;
  size_t index_writes = 0, edge_writes = 0;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, graph_of(*c, &g));
  WEFT_CHECK(comm, fn,
             output_arg(maxindex, "maxindex", index, "index", g->index.size(), &index_writes));
  WEFT_CHECK(comm, fn,
             output_arg(maxedges, "maxedges", edges, "edges", g->edges.size(), &edge_writes));
  std::copy_n(g->index.begin(), index_writes, index);
  std::copy_n(g->edges.begin(), edge_writes, edges);
  return MPI_SUCCESS;
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int* nneighbors) {
  constexpr const char* fn = "MPI_Graph_neighbors_count";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  const topo::Graph* g = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, graph_of(*c, &g));
  WEFT_CHECK(comm, fn, rank_arg(*c, rank));
  WEFT_CHECK(comm, fn, capi::check_not_null(nneighbors, "nneighbors"));
  *nneighbors = int(g->neighbors(rank).size());
  return MPI_SUCCESS;
}

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int* neighbors) {
  constexpr const char* fn = "MPI_Graph_neighbors";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  const topo::Graph* g = nullptr;
  size_t writes = 0;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, graph_of(*c, &g));
  WEFT_CHECK(comm, fn, rank_arg(*c, rank));
  const auto adjacent = g->neighbors(rank);
  WEFT_CHECK(
      comm, fn,
      output_arg(maxneighbors, "maxneighbors", neighbors, "neighbors", adjacent.size(), &writes));
  std::copy_n(adjacent.begin(), writes, neighbors);
  return MPI_SUCCESS;
}

}  // extern "C"

WEFT_MPI_ALIAS(MPI_Graph_create)
WEFT_MPI_ALIAS(MPI_Graph_map)
WEFT_MPI_ALIAS(MPI_Graphdims_get)
WEFT_MPI_ALIAS(MPI_Graph_get)
WEFT_MPI_ALIAS(MPI_Graph_neighbors_count)
WEFT_MPI_ALIAS(MPI_Graph_neighbors)
