// Process topologies, Cartesian part (MPI 4.0 §8.5.1, §8.5.2, §8.5.5-§8.5.7): MPI_Topo_test,
// MPI_Dims_create, MPI_Cart_create and MPI_Cart_map, the Cartesian inquiries, shift and sub.
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

// The Cartesian grid of `c`, or MPI_ERR_TOPOLOGY.
Status grid_of(const Comm& c, const topo::CartGrid** out) {
  const Topology* t = nullptr;
  WEFT_TRY(topo::topology_of(c, MPI_CART, &t));
  *out = &t->cart;
  return Status::success();
}

std::string list(const int* values, int n) {
  std::string text = "[";
  for (int i = 0; i < n; ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text + "]";
}

// MPI_Cart_create's and MPI_Cart_map's grid: ndims >= 0 dimensions of at least one position
// each, no more ranks than `c` has.
Status grid_arg(int ndims, const int* dims, const int* periods, const Comm& c,
                topo::CartGrid* out) {
  if (ndims < 0) {
    return Status::error(MPI_ERR_DIMS,
                         "invalid ndims=" + std::to_string(ndims) + " (must be >= 0)");
  }
  if (ndims > 0) {
    WEFT_TRY(capi::check_not_null(dims, "dims"));
    WEFT_TRY(capi::check_not_null(periods, "periods"));
  }
  long long ranks = 1;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] < 1) {
      return Status::error(MPI_ERR_DIMS, "invalid dims[" + std::to_string(i) +
                                             "]=" + std::to_string(dims[i]) + " (must be >= 1)");
    }
    ranks *= dims[i];
    if (ranks > c.size) {
      return Status::error(MPI_ERR_DIMS, "the grid dims=" + list(dims, ndims) +
                                             " needs more ranks than the " +
                                             std::to_string(c.size) + " of " + c.display_name());
    }
  }
  out->dims.assign(dims, dims + ndims);
  out->periods.clear();
  for (int i = 0; i < ndims; ++i) out->periods.push_back(periods[i] != 0 ? 1 : 0);
  return Status::success();
}

// An output array of `max` entries (argument `max_arg`) that must hold `ndims` values.
Status room_arg(int max, const char* max_arg, int ndims) {
  if (max >= ndims) return Status::success();
  return Status::error(MPI_ERR_ARG, std::string("invalid ") + max_arg + "=" + std::to_string(max) +
                                        " (the grid has " + std::to_string(ndims) + " dimensions)");
}

Status rank_arg(const Comm& c, int rank) {
  if (rank >= 0 && rank < c.size) return Status::success();
  return Status::error(MPI_ERR_RANK, "invalid rank=" + std::to_string(rank) + " (" +
                                         c.display_name() + " has " + std::to_string(c.size) +
                                         " ranks)");
}

// MPI_Cart_rank's coordinates: in range in every non-periodic dimension (out-of-range
// coordinates there are erroneous, MPI 4.0 §8.5.5).
Status coords_arg(const topo::CartGrid& g, const int* coords) {
  for (int i = 0; i < g.ndims(); ++i) {
    if (g.periods[size_t(i)] || (coords[i] >= 0 && coords[i] < g.dims[size_t(i)])) continue;
    return Status::error(MPI_ERR_ARG, "invalid coords[" + std::to_string(i) +
                                          "]=" + std::to_string(coords[i]) + " (dimension " +
                                          std::to_string(i) +
                                          " is not periodic; its coordinates are 0.." +
                                          std::to_string(g.dims[size_t(i)] - 1) + ")");
  }
  return Status::success();
}

}  // namespace

extern "C" {

int PMPI_Topo_test(MPI_Comm comm, int* status) {
  constexpr const char* fn = "MPI_Topo_test";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_not_null(status, "status"));
  *status = c->topology ? c->topology->kind : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

int PMPI_Dims_create(int nnodes, int ndims, int* dims) {
  constexpr const char* fn = "MPI_Dims_create";
  WEFT_REQUIRE_RUNNING(fn);
  if (ndims < 0) {
    return capi::report(
        MPI_COMM_WORLD, fn,
        Status::error(MPI_ERR_DIMS, "invalid ndims=" + std::to_string(ndims) + " (must be >= 0)"));
  }
  if (ndims > 0) WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(dims, "dims"));
  return capi::report(MPI_COMM_WORLD, fn, topo::dims_create(nnodes, {dims, size_t(ndims)}));
}

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int* dims, const int* periods, int,
                     MPI_Comm* comm_cart) {
  constexpr const char* fn = "MPI_Cart_create";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm_old, fn, capi::intra_comm_arg(comm_old, "comm_old", &c));
  auto t = std::make_shared<Topology>();
  t->kind = MPI_CART;
  WEFT_CHECK(comm_old, fn, grid_arg(ndims, dims, periods, *c, &t->cart));
  WEFT_CHECK(comm_old, fn, capi::check_not_null(comm_cart, "comm_cart"));
  const int ranks = t->cart.size();
  return capi::report(comm_old, fn, topo::create_on_first(*c, ranks, std::move(t), comm_cart));
}

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int* dims, const int* periods, int* newrank) {
  constexpr const char* fn = "MPI_Cart_map";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  topo::CartGrid grid;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, grid_arg(ndims, dims, periods, *c, &grid));
  WEFT_CHECK(comm, fn, capi::check_not_null(newrank, "newrank"));
  *newrank = c->rank < grid.size() ? c->rank : MPI_UNDEFINED;  // the identity map
  return MPI_SUCCESS;
}

int PMPI_Cartdim_get(MPI_Comm comm, int* ndims) {
  constexpr const char* fn = "MPI_Cartdim_get";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  const topo::CartGrid* g = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, grid_of(*c, &g));
  WEFT_CHECK(comm, fn, capi::check_not_null(ndims, "ndims"));
  *ndims = g->ndims();
  return MPI_SUCCESS;
}

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int* dims, int* periods, int* coords) {
  constexpr const char* fn = "MPI_Cart_get";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  const topo::CartGrid* g = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, grid_of(*c, &g));
  WEFT_CHECK(comm, fn, room_arg(maxdims, "maxdims", g->ndims()));
  if (g->ndims() > 0) {
    WEFT_CHECK(comm, fn, capi::check_not_null(dims, "dims"));
    WEFT_CHECK(comm, fn, capi::check_not_null(periods, "periods"));
    WEFT_CHECK(comm, fn, capi::check_not_null(coords, "coords"));
  }
  for (int i = 0; i < g->ndims(); ++i) {
    dims[i] = g->dims[size_t(i)];
    periods[i] = g->periods[size_t(i)];
  }
  g->coords_of(c->rank, {coords, size_t(g->ndims())});
  return MPI_SUCCESS;
}

int PMPI_Cart_rank(MPI_Comm comm, const int* coords, int* rank) {
  constexpr const char* fn = "MPI_Cart_rank";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  const topo::CartGrid* g = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, grid_of(*c, &g));
  if (g->ndims() > 0) WEFT_CHECK(comm, fn, capi::check_not_null(coords, "coords"));
  WEFT_CHECK(comm, fn, capi::check_not_null(rank, "rank"));
  WEFT_CHECK(comm, fn, coords_arg(*g, coords));
  g->rank_at({coords, size_t(g->ndims())}, rank);
  return MPI_SUCCESS;
}

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int* coords) {
  constexpr const char* fn = "MPI_Cart_coords";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  const topo::CartGrid* g = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, grid_of(*c, &g));
  WEFT_CHECK(comm, fn, rank_arg(*c, rank));
  WEFT_CHECK(comm, fn, room_arg(maxdims, "maxdims", g->ndims()));
  if (g->ndims() > 0) WEFT_CHECK(comm, fn, capi::check_not_null(coords, "coords"));
  g->coords_of(rank, {coords, size_t(g->ndims())});
  return MPI_SUCCESS;
}

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest) {
  constexpr const char* fn = "MPI_Cart_shift";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  const topo::CartGrid* g = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, grid_of(*c, &g));
  if (direction < 0 || direction >= g->ndims()) {
    return capi::report(
        comm, fn,
        Status::error(MPI_ERR_ARG, "invalid direction=" + std::to_string(direction) +
                                       " (the grid has " + std::to_string(g->ndims()) +
                                       " dimensions)"));
  }
  WEFT_CHECK(comm, fn, capi::check_not_null(rank_source, "rank_source"));
  WEFT_CHECK(comm, fn, capi::check_not_null(rank_dest, "rank_dest"));
  g->shift(c->rank, direction, disp, rank_source, rank_dest);
  return MPI_SUCCESS;
}

int PMPI_Cart_sub(MPI_Comm comm, const int* remain_dims, MPI_Comm* newcomm) {
  constexpr const char* fn = "MPI_Cart_sub";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  const topo::CartGrid* g = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, grid_of(*c, &g));
  if (g->ndims() > 0) WEFT_CHECK(comm, fn, capi::check_not_null(remain_dims, "remain_dims"));
  WEFT_CHECK(comm, fn, capi::check_not_null(newcomm, "newcomm"));
  return capi::report(comm, fn, topo::cart_sub(*c, *g, {remain_dims, size_t(g->ndims())}, newcomm));
}

}  // extern "C"

WEFT_MPI_ALIAS(MPI_Topo_test)
WEFT_MPI_ALIAS(MPI_Dims_create)
WEFT_MPI_ALIAS(MPI_Cart_create)
WEFT_MPI_ALIAS(MPI_Cart_map)
WEFT_MPI_ALIAS(MPI_Cartdim_get)
WEFT_MPI_ALIAS(MPI_Cart_get)
WEFT_MPI_ALIAS(MPI_Cart_rank)
WEFT_MPI_ALIAS(MPI_Cart_coords)
WEFT_MPI_ALIAS(MPI_Cart_shift)
WEFT_MPI_ALIAS(MPI_Cart_sub)
