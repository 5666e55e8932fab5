/* The large-count (_c) neighbourhood collectives on a periodic Cartesian ring: allgather(v) and
 * alltoall(v,w), each blocking, nonblocking and persistent (started twice with new data), give
 * the neighbours' values (MPI 4.0 §8.6: block 0 comes from the left neighbour's block 1, block
 * 1 from the right's block 0, also where left and right are one rank or this rank itself);
 * argument errors name the _c function. */
#include "expect_error.h"

static int rank, size, left, right;
static MPI_Comm ring;

static int value(int who, int round, int k) { return mix3(who, round, k) % 1000; }

/* The requests of the nonblocking and persistent calls; the persistent ones are made once, in
 * the first persistent round, started in each, and freed at the end. */
static MPI_Request gather_req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
static MPI_Request all_req[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};

enum Form { kBlocking, kNonblocking, kPersistent };
static const char* const kFormName[] = {"blocking", "nonblocking", "persistent"};

/* Completes a call made in `form`: a blocking call is done, a nonblocking one is waited for, a
 * persistent one is started and waited for (made inactive, not freed). */
static void finish(MPI_Request* r, enum Form form) {
  if (form == kBlocking) return;
  if (form == kPersistent) CHECK_MPI(MPI_Start(r));
  CHECK_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
}

static void allgather(enum Form form, int round) {
  check_context("MPI_Neighbor_allgather(v)_c, %s, round %d", kFormName[form], round);
  enum { n = 3 };
  static int send[n], recv[2 * n], recvv[2 * n + 3]; /* static: persistent calls keep them */
  MPI_Request* r = gather_req;
  const MPI_Count counts[2] = {n, n};
  const MPI_Aint displs[2] = {n + 3, 1}; /* the right neighbour's block first, gaps around */
  for (int k = 0; k < n; ++k) send[k] = value(rank, round, k);
  for (int k = 0; k < 2 * n; ++k) recv[k] = -1;
  for (int k = 0; k < 2 * n + 3; ++k) recvv[k] = -1;
  if (form == kBlocking) {
    CHECK_MPI(MPI_Neighbor_allgather_c(send, n, MPI_INT, recv, n, MPI_INT, ring));
    CHECK_MPI(MPI_Neighbor_allgatherv_c(send, n, MPI_INT, recvv, counts, displs, MPI_INT, ring));
  } else if (form == kNonblocking) {
    CHECK_MPI(MPI_Ineighbor_allgather_c(send, n, MPI_INT, recv, n, MPI_INT, ring, &r[0]));
    CHECK_MPI(
        MPI_Ineighbor_allgatherv_c(send, n, MPI_INT, recvv, counts, displs, MPI_INT, ring, &r[1]));
  } else if (r[0] == MPI_REQUEST_NULL) {
    CHECK_MPI(MPI_Neighbor_allgather_init_c(send, n, MPI_INT, recv, n, MPI_INT, ring, MPI_INFO_NULL,
                                            &r[0]));
    CHECK_MPI(MPI_Neighbor_allgatherv_init_c(send, n, MPI_INT, recvv, counts, displs, MPI_INT, ring,
                                             MPI_INFO_NULL, &r[1]));
  }
  finish(&r[0], form);
  finish(&r[1], form);
  for (int k = 0; k < n; ++k) {
    CHECK(recv[k] == value(left, round, k) && recv[n + k] == value(right, round, k));
    CHECK(recvv[n + 3 + k] == value(left, round, k) && recvv[1 + k] == value(right, round, k));
  }
  CHECK(recvv[0] == -1 && recvv[n + 1] == -1 && recvv[n + 2] == -1);
}

/* Block 0 goes to the left neighbour, block 1 to the right: alltoall with 2 ints each, v and w
 * with 1 int to the left and 3 to the right (so 3 arrive from the left and 1 from the right),
 * at gapped displacements. */
static void alltoall(enum Form form, int round) {
  check_context("MPI_Neighbor_alltoall(v,w)_c, %s, round %d", kFormName[form], round);
  static int send[4], recv[4], sendv[6], recvv[2][7]; /* static: persistent calls keep them */
  MPI_Request* r = all_req;
  const MPI_Count scounts[2] = {1, 3}, rcounts[2] = {3, 1};
  const MPI_Aint sdispls[2] = {4, 0}, rdispls[2] = {0, 5};
  const MPI_Aint sbytes[2] = {16, 0}, rbytes[2] = {0, 20};
  const MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  for (int b = 0; b < 2; ++b)
    for (int k = 0; k < 2; ++k) send[2 * b + k] = value(rank, 10 * round + b, k);
  sendv[4] = value(rank, 10 * round + 5, 0);                             /* to the left */
  for (int k = 0; k < 3; ++k) sendv[k] = value(rank, 10 * round + 6, k); /* to the right */
  sendv[3] = sendv[5] = -7;
  for (int k = 0; k < 4; ++k) recv[k] = -1;
  for (int v = 0; v < 2; ++v)
    for (int k = 0; k < 7; ++k) recvv[v][k] = -1;
  if (form == kBlocking) {
    CHECK_MPI(MPI_Neighbor_alltoall_c(send, 2, MPI_INT, recv, 2, MPI_INT, ring));
    CHECK_MPI(MPI_Neighbor_alltoallv_c(sendv, scounts, sdispls, MPI_INT, recvv[0], rcounts, rdispls,
                                       MPI_INT, ring));
    CHECK_MPI(MPI_Neighbor_alltoallw_c(sendv, scounts, sbytes, types, recvv[1], rcounts, rbytes,
                                       types, ring));
  } else if (form == kNonblocking) {
    CHECK_MPI(MPI_Ineighbor_alltoall_c(send, 2, MPI_INT, recv, 2, MPI_INT, ring, &r[0]));
    CHECK_MPI(MPI_Ineighbor_alltoallv_c(sendv, scounts, sdispls, MPI_INT, recvv[0], rcounts,
                                        rdispls, MPI_INT, ring, &r[1]));
    CHECK_MPI(MPI_Ineighbor_alltoallw_c(sendv, scounts, sbytes, types, recvv[1], rcounts, rbytes,
                                        types, ring, &r[2]));
  } else if (r[0] == MPI_REQUEST_NULL) {
    CHECK_MPI(MPI_Neighbor_alltoall_init_c(send, 2, MPI_INT, recv, 2, MPI_INT, ring, MPI_INFO_NULL,
                                           &r[0]));
    CHECK_MPI(MPI_Neighbor_alltoallv_init_c(sendv, scounts, sdispls, MPI_INT, recvv[0], rcounts,
                                            rdispls, MPI_INT, ring, MPI_INFO_NULL, &r[1]));
    CHECK_MPI(MPI_Neighbor_alltoallw_init_c(sendv, scounts, sbytes, types, recvv[1], rcounts,
                                            rbytes, types, ring, MPI_INFO_NULL, &r[2]));
  }
  for (int i = 0; i < 3; ++i) finish(&r[i], form);
  for (int k = 0; k < 2; ++k) {
    CHECK(recv[k] == value(left, 10 * round + 1, k));
    CHECK(recv[2 + k] == value(right, 10 * round + 0, k));
  }
  for (int v = 0; v < 2; ++v) {
    for (int k = 0; k < 3; ++k) CHECK(recvv[v][k] == value(left, 10 * round + 6, k));
    CHECK(recvv[v][5] == value(right, 10 * round + 5, 0));
    CHECK(recvv[v][3] == -1 && recvv[v][4] == -1 && recvv[v][6] == -1);
  }
}

static void free_persistent(void) {
  for (int i = 0; i < 2; ++i) CHECK_MPI(MPI_Request_free(&gather_req[i]));
  for (int i = 0; i < 3; ++i) CHECK_MPI(MPI_Request_free(&all_req[i]));
}

static void errors(void) {
  check_context("argument errors of the _c neighbourhood collectives");
  int buf[8] = {0};
  MPI_Request r = MPI_REQUEST_NULL;
  const MPI_Count counts[2] = {1, -2}, ok[2] = {1, 1};
  const MPI_Aint displs[2] = {0, 1}, bad_displs[2] = {-8, 0};
  const MPI_Datatype types[2] = {MPI_DATATYPE_NULL, MPI_INT};
  EXPECT_ERROR(MPI_Neighbor_alltoall_c(buf, -1, MPI_INT, buf, 1, MPI_INT, ring), MPI_ERR_COUNT,
               "MPI_Neighbor_alltoall_c", "sendcount=-1");
  EXPECT_ERROR(MPI_Ineighbor_allgather_c(buf, 1, MPI_INT, buf, 1, MPI_INT, ring, NULL), MPI_ERR_ARG,
               "MPI_Ineighbor_allgather_c", "request=NULL");
  EXPECT_ERROR(MPI_Neighbor_allgatherv_c(buf, 1, MPI_INT, buf, counts, displs, MPI_INT, ring),
               MPI_ERR_COUNT, "MPI_Neighbor_allgatherv_c", "recvcounts[1]=-2");
  EXPECT_ERROR(MPI_Neighbor_alltoallv_init_c(buf, ok, bad_displs, MPI_INT, buf, ok, displs, MPI_INT,
                                             ring, MPI_INFO_NULL, &r),
               MPI_ERR_ARG, "MPI_Neighbor_alltoallv_init_c", "sdispls[0]=-8");
  EXPECT_ERROR(MPI_Neighbor_alltoallw_c(buf, ok, displs, types, buf, ok, displs, types, ring),
               MPI_ERR_TYPE, "MPI_Neighbor_alltoallw_c", "sendtypes[0]=MPI_DATATYPE_NULL");
  EXPECT_ERROR(MPI_Ineighbor_alltoall_c(buf, 1, MPI_INT, buf, 1, MPI_INT, MPI_COMM_WORLD, &r),
               MPI_ERR_TOPOLOGY, "MPI_Ineighbor_alltoall_c", "process topology");
  EXPECT_ERROR(
      MPI_Neighbor_allgather_init_c(buf, 1, MPI_INT, NULL, 1, MPI_INT, ring, MPI_INFO_NULL, &r),
      MPI_ERR_BUFFER, "MPI_Neighbor_allgather_init_c", "recvbuf");
  CHECK(r == MPI_REQUEST_NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  world_ring(&rank, &size, &left, &right);
  int dims[1] = {size}, periods[1] = {1};
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
  MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
  int cart_rank = -1;
  MPI_Comm_rank(ring, &cart_rank);
  CHECK(cart_rank == rank); /* no reordering: ring neighbours are world neighbours */
  for (int form = kBlocking; form <= kPersistent; ++form) {
    for (int round = 1; round <= 2; ++round) {
      allgather((enum Form)form, round);
      alltoall((enum Form)form, round);
    }
  }
  free_persistent();
  errors();
  CHECK_MPI(MPI_Comm_free(&ring));
  MPI_Finalize();
  return 0;
}
