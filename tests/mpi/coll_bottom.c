/* MPI_BOTTOM with absolute displacements in the collectives that take a displacement per block:
 * MPI_Neighbor_alltoallw (blocking, nonblocking, persistent), MPI_Neighbor_alltoallv_c and
 * MPI_Neighbor_allgatherv_c (MPI_BYTE blocks at addresses from MPI_Get_address), and the plain
 * MPI_Alltoallw_c, on a periodic Cartesian ring where block 0 goes to (comes from) the left
 * neighbour and block 1 to (from) the right. The data lives in separate variables, so only the
 * absolute addresses find it. A NULL buffer whose blocks would start at small addresses (a
 * NULL passed by mistake) is still an error. */
#include "expect_error.h"

static int rank, size, left, right;
static MPI_Comm ring;

static int value(int who, int round, int k) { return mix3(who, round, k) % 1000; }

static MPI_Aint address_of(const void* p) {
  MPI_Aint a = 0;
  CHECK_MPI(MPI_Get_address(p, &a));
  return a;
}

/* Sent: one int to the left (to_left) and two to the right (to_right); received: two from the
 * left (its to_right) and one from the right (its to_left). Static: the persistent form keeps
 * the addresses. */
static int to_left, to_right[2], from_left[2], from_right;

static void fill(int round) {
  to_left = value(rank, round, 0);
  to_right[0] = value(rank, round, 1);
  to_right[1] = value(rank, round, 2);
  from_left[0] = from_left[1] = from_right = -1;
}

static void check_received(int round) {
  CHECK(from_left[0] == value(left, round, 1));
  CHECK(from_left[1] == value(left, round, 2));
  CHECK(from_right == value(right, round, 0));
}

static void neighbor_alltoallw(void) {
  const int scounts[2] = {1, 2}, rcounts[2] = {2, 1};
  const MPI_Aint sdispls[2] = {address_of(&to_left), address_of(to_right)};
  const MPI_Aint rdispls[2] = {address_of(from_left), address_of(&from_right)};
  const MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  check_context("MPI_Neighbor_alltoallw with MPI_BOTTOM");
  fill(1);
  CHECK_MPI(MPI_Neighbor_alltoallw(MPI_BOTTOM, scounts, sdispls, types, MPI_BOTTOM, rcounts,
                                   rdispls, types, ring));
  check_received(1);

  check_context("MPI_Ineighbor_alltoallw with MPI_BOTTOM");
  MPI_Request r;
  fill(2);
  CHECK_MPI(MPI_Ineighbor_alltoallw(MPI_BOTTOM, scounts, sdispls, types, MPI_BOTTOM, rcounts,
                                    rdispls, types, ring, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  check_received(2);

  check_context("MPI_Neighbor_alltoallw_init with MPI_BOTTOM, started twice");
  CHECK_MPI(MPI_Neighbor_alltoallw_init(MPI_BOTTOM, scounts, sdispls, types, MPI_BOTTOM, rcounts,
                                        rdispls, types, ring, MPI_INFO_NULL, &r));
  for (int round = 3; round < 5; ++round) {
    fill(round);
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    check_received(round);
  }
  CHECK_MPI(MPI_Request_free(&r));
}

/* The v forms count in extents of the type: with MPI_BYTE a displacement is an address. */
static void neighbor_v_forms(void) {
  check_context("MPI_Neighbor_alltoallv_c with MPI_BOTTOM and MPI_BYTE");
  const MPI_Count scounts[2] = {sizeof(int), 2 * sizeof(int)};
  const MPI_Count rcounts[2] = {2 * sizeof(int), sizeof(int)};
  const MPI_Aint sdispls[2] = {address_of(&to_left), address_of(to_right)};
  const MPI_Aint rdispls[2] = {address_of(from_left), address_of(&from_right)};
  fill(5);
  CHECK_MPI(MPI_Neighbor_alltoallv_c(MPI_BOTTOM, scounts, sdispls, MPI_BYTE, MPI_BOTTOM, rcounts,
                                     rdispls, MPI_BYTE, ring));
  check_received(5);

  check_context("MPI_Neighbor_allgatherv_c into MPI_BOTTOM with MPI_BYTE");
  static int mine, got_left, got_right;
  mine = value(rank, 6, 0);
  got_left = got_right = -1;
  const MPI_Count counts[2] = {sizeof(int), sizeof(int)};
  const MPI_Aint displs[2] = {address_of(&got_left), address_of(&got_right)};
  CHECK_MPI(MPI_Neighbor_allgatherv_c(&mine, 1, MPI_INT, MPI_BOTTOM, counts, displs, MPI_BYTE,
                                      ring));
  CHECK(got_left == value(left, 6, 0));
  CHECK(got_right == value(right, 6, 0));
}

/* The plain all-to-all as well: rank r sends r*100+j to rank j, each int in its own slot of a
 * scattered array, found by address. */
static void alltoallw(void) {
  check_context("MPI_Alltoallw_c with MPI_BOTTOM");
  enum { kMax = 16 };
  static int out[kMax][3], in[kMax][3]; /* the middle int of each row is used */
  MPI_Count counts[kMax];
  MPI_Aint sdispls[kMax], rdispls[kMax];
  MPI_Datatype types[kMax];
  CHECK(size <= kMax);
  for (int j = 0; j < size; ++j) {
    out[j][1] = rank * 100 + j;
    in[j][1] = -1;
    counts[j] = 1;
    sdispls[j] = address_of(&out[j][1]);
    rdispls[j] = address_of(&in[j][1]);
    types[j] = MPI_INT;
  }
  CHECK_MPI(MPI_Alltoallw_c(MPI_BOTTOM, counts, sdispls, types, MPI_BOTTOM, counts, rdispls, types,
                            MPI_COMM_WORLD));
  for (int j = 0; j < size; ++j) CHECK(in[j][1] == j * 100 + rank);
}

static void errors(void) {
  check_context("a NULL buffer whose blocks would start at addresses 0 and 4");
  const int counts[2] = {1, 1};
  const MPI_Aint displs[2] = {0, sizeof(int)};
  const MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  int recv[2];
  const MPI_Aint rdispls[2] = {0, sizeof(int)};
  EXPECT_ERROR(
      MPI_Neighbor_alltoallw(NULL, counts, displs, types, recv, counts, rdispls, types, ring),
      MPI_ERR_BUFFER, "MPI_Neighbor_alltoallw", "sendbuf=NULL");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int dims[1] = {size}, periods[1] = {1};
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
  MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
  CHECK_MPI(MPI_Cart_shift(ring, 0, 1, &left, &right));
  neighbor_alltoallw();
  neighbor_v_forms();
  alltoallw();
  errors();
  CHECK_MPI(MPI_Comm_free(&ring));
  MPI_Finalize();
  return 0;
}
