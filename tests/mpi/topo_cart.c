/* Cartesian topologies at any world size: 1-D, 2-D and 3-D grids, periodic and not, from
 * MPI_Dims_create; every inquiry (Topo_test, Cartdim_get, Cart_get, Cart_coords, Cart_rank with
 * periodic wrap, Cart_shift with PROC_NULL at edges, Cart_map) checked against row-major math;
 * ranks beyond a smaller grid get MPI_COMM_NULL; dup and idup keep the topology; Cart_sub
 * splits into the right subgrids; a zero-dimensional grid holds rank 0 alone. */
#include <stdlib.h>

#include "check.h"

#define MAXD 3

static int wrap(int c, int d) { return ((c % d) + d) % d; }

/* Row-major rank of coords, or -1 when out of range in a non-periodic dimension. */
static int rank_of(int n, const int* dims, const int* periods, const int* coords) {
  int r = 0;
  for (int i = 0; i < n; ++i) {
    int c = coords[i];
    if (c < 0 || c >= dims[i]) {
      if (!periods[i]) return -1;
      c = wrap(c, dims[i]);
    }
    r = r * dims[i] + c;
  }
  return r;
}

static void coords_of(int n, const int* dims, int r, int* coords) {
  for (int i = n - 1; i >= 0; --i) {
    coords[i] = r % dims[i];
    r /= dims[i];
  }
}

/* Checks every inquiry on `cart`, a grid of `n` dimensions. */
static void check_grid(MPI_Comm cart, int n, const int* dims, const int* periods, int rank) {
  int status = -1, ndims = -1, got_dims[MAXD], got_periods[MAXD], coords[MAXD], c2[MAXD];
  CHECK_MPI(MPI_Topo_test(cart, &status));
  CHECK(status == MPI_CART);
  CHECK_MPI(MPI_Cartdim_get(cart, &ndims));
  CHECK(ndims == n);
  CHECK_MPI(MPI_Cart_get(cart, MAXD, got_dims, got_periods, coords));
  check_ints(got_dims, dims, n, "dims");
  for (int i = 0; i < n; ++i) CHECK(!got_periods[i] == !periods[i]);
  int want[MAXD];
  coords_of(n, dims, rank, want);
  check_ints(coords, want, n, "coords of this rank");
  int size = 1;
  for (int i = 0; i < n; ++i) size *= dims[i];
  for (int r = 0; r < size; ++r) {
    CHECK_MPI(MPI_Cart_coords(cart, r, MAXD, c2));
    coords_of(n, dims, r, want);
    check_ints(c2, want, n, "MPI_Cart_coords");
    int back = -1;
    CHECK_MPI(MPI_Cart_rank(cart, c2, &back));
    CHECK(back == r);
  }
  /* Periodic wrap in MPI_Cart_rank: step every periodic coordinate by a multiple of its size. */
  for (int i = 0; i < n; ++i) c2[i] = coords[i] + (periods[i] ? 3 * dims[i] - dims[i] * 5 : 0);
  int wrapped = -1;
  CHECK_MPI(MPI_Cart_rank(cart, c2, &wrapped));
  CHECK(wrapped == rank);
  for (int d = 0; d < n; ++d) {
    for (int disp = -3; disp <= 3; ++disp) {
      int src = -7, dst = -7;
      CHECK_MPI(MPI_Cart_shift(cart, d, disp, &src, &dst));
      int moved[MAXD];
      for (int i = 0; i < n; ++i) moved[i] = coords[i];
      moved[d] = coords[d] - disp;
      const int want_src = rank_of(n, dims, periods, moved);
      moved[d] = coords[d] + disp;
      const int want_dst = rank_of(n, dims, periods, moved);
      check_context("MPI_Cart_shift dimension %d disp %d", d, disp);
      CHECK(src == (want_src < 0 ? MPI_PROC_NULL : want_src));
      CHECK(dst == (want_dst < 0 ? MPI_PROC_NULL : want_dst));
    }
  }
  check_context("%s", "");
  int newrank = -1;
  CHECK_MPI(MPI_Cart_map(cart, n, dims, periods, &newrank));
  CHECK(newrank == rank);
}

/* A grid of the given shape over the world (dims 0 filled in by MPI_Dims_create). */
static void grid_case(int n, int* dims, const int* periods, int rank, int size) {
  CHECK_MPI(MPI_Dims_create(size, n, dims));
  MPI_Comm cart = MPI_COMM_NULL;
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, n, dims, periods, 0, &cart));
  CHECK(cart != MPI_COMM_NULL);
  int cart_rank = -1, cart_size = -1;
  MPI_Comm_rank(cart, &cart_rank);
  MPI_Comm_size(cart, &cart_size);
  CHECK(cart_rank == rank && cart_size == size); /* no reordering */
  check_grid(cart, n, dims, periods, rank);
  MPI_Comm dup = MPI_COMM_NULL, idup = MPI_COMM_NULL;
  MPI_Request req;
  CHECK_MPI(MPI_Comm_dup(cart, &dup));
  check_grid(dup, n, dims, periods, rank);
  CHECK_MPI(MPI_Comm_idup(cart, &idup, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  check_grid(idup, n, dims, periods, rank);
  MPI_Comm_free(&idup);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&cart);
}

/* MPI_Cart_sub of a 3-D grid: each subgrid holds the ranks that agree on the dropped
 * coordinates, in row-major order of the kept ones, and carries their grid. */
static void sub_case(int rank, int size) {
  int dims[3] = {0, 0, 0}, periods[3] = {1, 0, 1}, coords[3];
  MPI_Dims_create(size, 3, dims);
  MPI_Comm cart;
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart));
  coords_of(3, dims, rank, coords);
  for (int mask = 0; mask < 8; ++mask) {
    const int remain[3] = {mask & 1, (mask >> 1) & 1, (mask >> 2) & 1};
    MPI_Comm sub = MPI_COMM_NULL;
    check_context("MPI_Cart_sub remain {%d,%d,%d}", remain[0], remain[1], remain[2]);
    CHECK_MPI(MPI_Cart_sub(cart, remain, &sub));
    CHECK(sub != MPI_COMM_NULL);
    int kept = 0, sub_dims[3], sub_periods[3], want_size = 1, want_rank = 0;
    for (int i = 0; i < 3; ++i) {
      if (!remain[i]) continue;
      sub_dims[kept] = dims[i];
      sub_periods[kept] = periods[i];
      want_rank = want_rank * dims[i] + coords[i];
      want_size *= dims[i];
      ++kept;
    }
    int sub_rank = -1, sub_size = -1, ndims = -1;
    MPI_Comm_rank(sub, &sub_rank);
    MPI_Comm_size(sub, &sub_size);
    CHECK(sub_size == want_size && sub_rank == want_rank);
    CHECK_MPI(MPI_Cartdim_get(sub, &ndims));
    CHECK(ndims == kept);
    check_grid(sub, kept, sub_dims, sub_periods, sub_rank);
    /* Members agree on the dropped coordinates: the sum of their dropped coordinates is
     * sub_size times mine. */
    int mine = 0, sum = 0;
    for (int i = 0; i < 3; ++i)
      if (!remain[i]) mine = mine * 16 + coords[i];
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, sub));
    CHECK(sum == mine * sub_size);
    MPI_Comm_free(&sub);
  }
  check_context("%s", "");
  MPI_Comm_free(&cart);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);

  int line[1] = {0}, open_line[1] = {0}, ring[1] = {1};
  grid_case(1, line, open_line, rank, size);
  line[0] = 0;
  grid_case(1, line, ring, rank, size);
  int plane[2] = {0, 0}, torus[2] = {1, 1}, strip[2] = {1, 0};
  grid_case(2, plane, torus, rank, size);
  plane[0] = plane[1] = 0;
  grid_case(2, plane, strip, rank, size);
  int box[3] = {0, 0, 0}, mixed[3] = {0, 1, 1};
  grid_case(3, box, mixed, rank, size);
  int fixed[3] = {1, 0, 1}, closed[3] = {0, 0, 0};
  grid_case(3, fixed, closed, rank, size);
  sub_case(rank, size);

  /* A grid smaller than the world: ranks past it get MPI_COMM_NULL. */
  const int small = size > 1 ? size - 1 : 1;
  int small_dims[1] = {small}, small_periods[1] = {1};
  MPI_Comm part = MPI_COMM_NULL;
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, small_dims, small_periods, 1, &part));
  CHECK((part == MPI_COMM_NULL) == (rank >= small));
  int newrank = -2;
  CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, 1, small_dims, small_periods, &newrank));
  CHECK(newrank == (rank < small ? rank : MPI_UNDEFINED));
  if (part != MPI_COMM_NULL) {
    check_grid(part, 1, small_dims, small_periods, rank);
    MPI_Comm_free(&part);
  }

  /* Zero dimensions: a grid of one rank. */
  MPI_Comm point = MPI_COMM_NULL;
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &point));
  CHECK((point == MPI_COMM_NULL) == (rank != 0));
  if (point != MPI_COMM_NULL) {
    int ndims = -1, r = -1, point_size = 0;
    CHECK_MPI(MPI_Cartdim_get(point, &ndims));
    CHECK(ndims == 0);
    CHECK_MPI(MPI_Cart_rank(point, NULL, &r));
    CHECK(r == 0);
    MPI_Comm_size(point, &point_size);
    CHECK(point_size == 1);
    MPI_Comm_free(&point);
  }

  /* A communicator without a topology, and one split from a grid, have none. */
  int status = 0;
  CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &status));
  CHECK(status == MPI_UNDEFINED);
  MPI_Comm cart, split;
  int dims2[2] = {0, 0}, periods2[2] = {0, 0};
  MPI_Dims_create(size, 2, dims2);
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims2, periods2, 0, &cart));
  CHECK_MPI(MPI_Comm_split(cart, 0, rank, &split));
  CHECK_MPI(MPI_Topo_test(split, &status));
  CHECK(status == MPI_UNDEFINED);
  MPI_Comm_free(&split);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
