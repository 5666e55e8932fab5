// Process topologies, distributed graph part (MPI 4.0 §8.5.4, §8.5.5):
// MPI_Dist_graph_create_adjacent, MPI_Dist_graph_create and their neighbour inquiries.
#include <algorithm>
#include <string>
#include <vector>

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

// A weights array the caller gave (not a special value): MPI_UNWEIGHTED and
// MPI_WEIGHTS_EMPTY point nowhere.
bool real_array(const int* weights) {
  return weights != nullptr && weights != MPI_UNWEIGHTED && weights != MPI_WEIGHTS_EMPTY;
}
// Weights given explicitly: an array or MPI_WEIGHTS_EMPTY. NULL, which a process without edges
// may pass, gives none but does not say "unweighted" either.
bool gives_weights(const int* weights) { return weights != nullptr && weights != MPI_UNWEIGHTED; }
// Only MPI_UNWEIGHTED (a value of its own in mpi.h) makes a graph unweighted: NULL weights
// leave it weighted, as in Open MPI and MPICH.
bool weighted_unless_unweighted(const int* weights) { return weights != MPI_UNWEIGHTED; }

Status non_negative(int value, const std::string& arg) {
  if (value >= 0) return Status::success();
  return Status::error(MPI_ERR_ARG,
                       "invalid " + arg + "=" + std::to_string(value) + " (must be >= 0)");
}

std::string at(const char* arg, int i) { return std::string(arg) + "[" + std::to_string(i) + "]"; }

// `n` ranks of `c` in `ranks` (argument `arg`), each a rank of `c`.
Status ranks_arg(const Comm& c, const int* ranks, int n, const char* arg) {
  if (n > 0) WEFT_TRY(capi::check_not_null(ranks, arg));
  for (int i = 0; i < n; ++i) {
    if (ranks[i] >= 0 && ranks[i] < c.size) continue;
    return Status::error(MPI_ERR_RANK, "invalid " + at(arg, i) + "=" + std::to_string(ranks[i]) +
                                           " (" + c.display_name() + " has " +
                                           std::to_string(c.size) + " ranks)");
  }
  return Status::success();
}

// `n` weights of a weighted graph (argument `arg`): an array of non-negative values.
Status weights_arg(const int* weights, int n, const char* arg, std::vector<int>* out) {
  if (n > 0 && !real_array(weights)) {
    const char* given = weights == nullptr             ? "NULL"
                        : weights == MPI_WEIGHTS_EMPTY ? "MPI_WEIGHTS_EMPTY"
                                                       : "MPI_UNWEIGHTED";
    return Status::error(MPI_ERR_ARG, std::string("invalid ") + arg + "=" + given + " for " +
                                          std::to_string(n) +
                                          " edges (a weighted graph needs a weight per edge)");
  }
  out->clear();
  for (int i = 0; i < n; ++i) {
    WEFT_TRY(non_negative(weights[i], at(arg, i)));
    out->push_back(weights[i]);
  }
  return Status::success();
}

// The adjacent form's lists: indegree sources and outdegree destinations. The graph is weighted
// unless a weight argument is MPI_UNWEIGHTED (NULL on both sides: weighted, with no edges);
// MPI_UNWEIGHTED on one side and weights on the other contradict each other (MPI 4.0 §8.5.4).
Status adjacent_arg(const Comm& c, int indegree, const int* sources, const int* sourceweights,
                    int outdegree, const int* destinations, const int* destweights,
                    topo::DistGraph* out) {
  WEFT_TRY(non_negative(indegree, "indegree"));
  WEFT_TRY(non_negative(outdegree, "outdegree"));
  WEFT_TRY(ranks_arg(c, sources, indegree, "sources"));
  WEFT_TRY(ranks_arg(c, destinations, outdegree, "destinations"));
  if ((sourceweights == MPI_UNWEIGHTED && gives_weights(destweights)) ||
      (destweights == MPI_UNWEIGHTED && gives_weights(sourceweights))) {
    return Status::error(MPI_ERR_ARG, std::string(sourceweights == MPI_UNWEIGHTED ? "sourceweights"
                                                                                  : "destweights") +
                                          "=MPI_UNWEIGHTED but the other gives weights (a graph "
                                          "is weighted or not)");
  }
  out->weighted =
      weighted_unless_unweighted(sourceweights) && weighted_unless_unweighted(destweights);
  if (out->weighted) {
    WEFT_TRY(weights_arg(sourceweights, indegree, "sourceweights", &out->source_weights));
    WEFT_TRY(weights_arg(destweights, outdegree, "destweights", &out->destination_weights));
  }
  out->sources.assign(sources, sources + indegree);
  out->destinations.assign(destinations, destinations + outdegree);
  return Status::success();
}

// The general form's edges: for each of the n sources, degrees[i] destinations in turn.
Status edges_arg(const Comm& c, int n, const int* sources, const int* degrees,
                 const int* destinations, const int* weights, std::vector<topo::Edge>* out) {
  WEFT_TRY(non_negative(n, "n"));
  WEFT_TRY(ranks_arg(c, sources, n, "sources"));
  if (n > 0) WEFT_TRY(capi::check_not_null(degrees, "degrees"));
  long long total = 0;
  for (int i = 0; i < n; ++i) {
    WEFT_TRY(non_negative(degrees[i], at("degrees", i)));
    total += degrees[i];
  }
  if (total > 0x7fffffff) {
    return Status::error(MPI_ERR_ARG, "the degrees add up to " + std::to_string(total) +
                                          " edges, more than an int can count");
  }
  WEFT_TRY(ranks_arg(c, destinations, int(total), "destinations"));
  std::vector<int> given_weights(size_t(total), 1);
  if (weights != MPI_UNWEIGHTED)
    WEFT_TRY(weights_arg(weights, int(total), "weights", &given_weights));
  int e = 0;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < degrees[i]; ++k, ++e)
      out->push_back({sources[i], destinations[e], given_weights[size_t(e)]});
  }
  return Status::success();
}

// The distributed graph of `c`, or MPI_ERR_TOPOLOGY.
Status dist_graph_of(const Comm& c, const topo::DistGraph** out) {
  const Topology* t = nullptr;
  WEFT_TRY(topo::topology_of(c, MPI_DIST_GRAPH, &t));
  *out = &t->dist_graph;
  return Status::success();
}

// Copies what fits of `values` into `array`, which has room for `max` of them.
Status copy_out(const std::vector<int>& values, int max, const char* max_arg, int* array,
                const char* arg) {
  WEFT_TRY(non_negative(max, max_arg));
  const size_t n = std::min(values.size(), size_t(max));
  if (n > 0) WEFT_TRY(capi::check_not_null(array, arg));
  std::copy_n(values.begin(), n, array);
  return Status::success();
}

}  // namespace

extern "C" {

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int* sources,
                                    const int* sourceweights, int outdegree,
                                    const int* destinations, const int* destweights, MPI_Info, int,
                                    MPI_Comm* comm_dist_graph) {
  constexpr const char* fn = "MPI_Dist_graph_create_adjacent";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm_old, fn, capi::intra_comm_arg(comm_old, "comm_old", &c));
  auto t = std::make_shared<Topology>();
  t->kind = MPI_DIST_GRAPH;
  WEFT_CHECK(comm_old, fn,
             adjacent_arg(*c, indegree, sources, sourceweights, outdegree, destinations,
                          destweights, &t->dist_graph));
  WEFT_CHECK(comm_old, fn, capi::check_not_null(comm_dist_graph, "comm_dist_graph"));
  return capi::report(comm_old, fn,
                      topo::create_on_first(*c, c->size, std::move(t), comm_dist_graph));
}

int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int* sources, const int* degrees,
                           const int* destinations, const int* weights, MPI_Info, int,
                           MPI_Comm* comm_dist_graph) {
  constexpr const char* fn = "MPI_Dist_graph_create";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  std::vector<topo::Edge> edges;
  WEFT_CHECK(comm_old, fn, capi::intra_comm_arg(comm_old, "comm_old", &c));
  WEFT_CHECK(comm_old, fn, edges_arg(*c, n, sources, degrees, destinations, weights, &edges));
  WEFT_CHECK(comm_old, fn, capi::check_not_null(comm_dist_graph, "comm_dist_graph"));
  return capi::report(comm_old, fn,
                      topo::dist_graph_create(*c, edges, weighted_unless_unweighted(weights),
                                              comm_dist_graph));
}

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted) {
  constexpr const char* fn = "MPI_Dist_graph_neighbors_count";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  const topo::DistGraph* g = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, dist_graph_of(*c, &g));
  WEFT_CHECK(comm, fn, capi::check_not_null(indegree, "indegree"));
  WEFT_CHECK(comm, fn, capi::check_not_null(outdegree, "outdegree"));
  WEFT_CHECK(comm, fn, capi::check_not_null(weighted, "weighted"));
  *indegree = int(g->sources.size());
  *outdegree = int(g->destinations.size());
  *weighted = g->weighted ? 1 : 0;
  return MPI_SUCCESS;
}

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int* sources, int* sourceweights,
                              int maxoutdegree, int* destinations, int* destweights) {
  constexpr const char* fn = "MPI_Dist_graph_neighbors";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  const topo::DistGraph* g = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, dist_graph_of(*c, &g));
  WEFT_CHECK(comm, fn, copy_out(g->sources, maxindegree, "maxindegree", sources, "sources"));
  WEFT_CHECK(comm, fn,
             copy_out(g->destinations, maxoutdegree, "maxoutdegree", destinations, "destinations"));
  // Weights go only to arrays the caller gave, and only for a weighted graph.
  if (g->weighted && real_array(sourceweights))
    WEFT_CHECK(
        comm, fn,
        copy_out(g->source_weights, maxindegree, "maxindegree", sourceweights, "sourceweights"));
  if (g->weighted && real_array(destweights))
    WEFT_CHECK(
        comm, fn,
        copy_out(g->destination_weights, maxoutdegree, "maxoutdegree", destweights, "destweights"));
  return MPI_SUCCESS;
}

}  // extern "C"

WEFT_MPI_ALIAS(MPI_Dist_graph_create_adjacent)
WEFT_MPI_ALIAS(MPI_Dist_graph_create)
WEFT_MPI_ALIAS(MPI_Dist_graph_neighbors_count)
WEFT_MPI_ALIAS(MPI_Dist_graph_neighbors)
