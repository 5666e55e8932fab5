/* What Weft accepts because Open MPI and MPICH both do, though the standard leaves it doubtful
 * (man weft, "Leniencies"):
 * - MPI_CHAR in the integer reductions, as OSU's osu_allreduce uses it by default (and the
 *   standard's MPI_SIGNED_CHAR and MPI_UNSIGNED_CHAR next to it);
 * - MPI_DATATYPE_NULL with count 0 in point-to-point calls (MPICH's test suite posts such an
 *   MPI_Irecv) and on the empty sides and blocks of collectives.
 * With a non-zero count MPI_DATATYPE_NULL stays an error. */
#include "expect_error.h"

static int rank, size, left, right;

static void char_reductions(void) {
  check_context("MPI_Allreduce on MPI_CHAR, MPI_SIGNED_CHAR and MPI_UNSIGNED_CHAR");
  enum { n = 5 };
  char c[n], c_out[n];
  signed char s[n], s_out[n];
  unsigned char u[n], u_out[n];
  for (int i = 0; i < n; ++i) {
    c[i] = (char)(i + 1);
    s[i] = (signed char)(rank % 2 == 0 ? -1 : 1);
    u[i] = (unsigned char)(rank * 10 + i);
  }
  CHECK_MPI(MPI_Allreduce(c, c_out, n, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD));
  for (int i = 0; i < n; ++i) CHECK(c_out[i] == (char)((i + 1) * size));
  CHECK_MPI(MPI_Allreduce(s, s_out, n, MPI_SIGNED_CHAR, MPI_SUM, MPI_COMM_WORLD));
  for (int i = 0; i < n; ++i) CHECK(s_out[i] == (signed char)(size % 2 == 0 ? 0 : -1));
  CHECK_MPI(MPI_Allreduce(u, u_out, n, MPI_UNSIGNED_CHAR, MPI_MAX, MPI_COMM_WORLD));
  for (int i = 0; i < n; ++i) CHECK(u_out[i] == (unsigned char)((size - 1) * 10 + i));
  CHECK_MPI(MPI_Allreduce(u, u_out, n, MPI_UNSIGNED_CHAR, MPI_MIN, MPI_COMM_WORLD));
  for (int i = 0; i < n; ++i) CHECK(u_out[i] == (unsigned char)i);
  char one = 1, product = 0;
  CHECK_MPI(MPI_Allreduce(&one, &product, 1, MPI_CHAR, MPI_PROD, MPI_COMM_WORLD));
  CHECK(product == 1);
  char mine = (char)(rank + 1), top = 0, low = 0;
  CHECK_MPI(MPI_Reduce(&mine, &top, 1, MPI_CHAR, MPI_MAX, 0, MPI_COMM_WORLD));
  CHECK(rank != 0 || top == (char)size);
  CHECK_MPI(MPI_Allreduce(&mine, &low, 1, MPI_CHAR, MPI_MIN, MPI_COMM_WORLD));
  CHECK(low == 1);
}

static void empty_point_to_point(void) {
  check_context("point-to-point with MPI_DATATYPE_NULL and count 0");
  MPI_Request r[2];
  MPI_Status st;
  int count = -1;
  CHECK_MPI(MPI_Irecv(NULL, 0, MPI_DATATYPE_NULL, left, 3, MPI_COMM_WORLD, &r[0]));
  CHECK_MPI(MPI_Isend(NULL, 0, MPI_DATATYPE_NULL, right, 3, MPI_COMM_WORLD, &r[1]));
  CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
  CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_DATATYPE_NULL, right, 4, NULL, 0, MPI_DATATYPE_NULL, left, 4,
                         MPI_COMM_WORLD, &st));
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 4);
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
  CHECK(count == 0);
  /* An empty message with a real type matches an empty receive with MPI_DATATYPE_NULL. */
  if (rank % 2 == 0) {
    CHECK_MPI(MPI_Send(NULL, 0, MPI_DOUBLE, right, 5, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  } else {
    CHECK_MPI(MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Send(NULL, 0, MPI_DOUBLE, right, 5, MPI_COMM_WORLD));
  }
}

static void empty_collectives(void) {
  check_context("collectives with MPI_DATATYPE_NULL on empty sides");
  enum { kMax = 16 };
  CHECK(size <= kMax);
  CHECK_MPI(MPI_Bcast(NULL, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Allgather(NULL, 0, MPI_DATATYPE_NULL, NULL, 0, MPI_DATATYPE_NULL, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Alltoall(NULL, 0, MPI_DATATYPE_NULL, NULL, 0, MPI_DATATYPE_NULL, MPI_COMM_WORLD));

  /* MPI_Gatherv to rank 0 of one int from each odd rank: the even ranks send nothing, with
   * MPI_DATATYPE_NULL, and the root's recvtype stays MPI_INT. */
  int mine = rank * 7, all[kMax], counts[kMax], displs[kMax];
  for (int j = 0; j < size; ++j) {
    counts[j] = j % 2;
    displs[j] = j;
    all[j] = -1;
  }
  const int odd = rank % 2;
  CHECK_MPI(MPI_Gatherv(&mine, odd, odd ? MPI_INT : MPI_DATATYPE_NULL, all, counts, displs,
                        MPI_INT, 0, MPI_COMM_WORLD));
  if (rank == 0)
    for (int j = 0; j < size; ++j) CHECK(all[j] == (j % 2 ? j * 7 : -1));

  /* MPI_Alltoallw where only the block to (and from) the right neighbour carries data; every
   * other block has count 0 and MPI_DATATYPE_NULL, on both sides. */
  int out = rank * 100 + right, in = -1;
  int scounts[kMax], rcounts[kMax], sdispls[kMax], rdispls[kMax];
  MPI_Datatype stypes[kMax], rtypes[kMax];
  for (int j = 0; j < size; ++j) {
    scounts[j] = rcounts[j] = 0;
    sdispls[j] = rdispls[j] = 0;
    stypes[j] = rtypes[j] = MPI_DATATYPE_NULL;
  }
  scounts[right] = 1;
  stypes[right] = MPI_INT;
  rcounts[left] = 1;
  rtypes[left] = MPI_INT;
  if (size == 1) { /* left == right == 0 */
    scounts[0] = rcounts[0] = 1;
  }
  CHECK_MPI(MPI_Alltoallw(&out, scounts, sdispls, stypes, &in, rcounts, rdispls, rtypes,
                          MPI_COMM_WORLD));
  CHECK(in == left * 100 + rank);

  /* MPI_Alltoallv with no data at all and MPI_DATATYPE_NULL as both types. */
  for (int j = 0; j < size; ++j) scounts[j] = 0;
  CHECK_MPI(MPI_Alltoallv(NULL, scounts, sdispls, MPI_DATATYPE_NULL, NULL, scounts, rdispls,
                          MPI_DATATYPE_NULL, MPI_COMM_WORLD));

  /* A neighbourhood all-to-all on a periodic ring whose blocks are all empty. */
  MPI_Comm ring;
  const int dims[1] = {size}, periods[1] = {1};
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
  MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
  const int zero[2] = {0, 0};
  const MPI_Aint nowhere[2] = {0, 0};
  const MPI_Datatype none[2] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL};
  CHECK_MPI(MPI_Neighbor_alltoallw(NULL, zero, nowhere, none, NULL, zero, nowhere, none, ring));
  CHECK_MPI(
      MPI_Neighbor_alltoall(NULL, 0, MPI_DATATYPE_NULL, NULL, 0, MPI_DATATYPE_NULL, ring));
  CHECK_MPI(MPI_Comm_free(&ring));
}

static void still_errors(void) {
  check_context("MPI_DATATYPE_NULL with a non-zero count is still an error");
  int buf[2] = {0, 0};
  MPI_Request r = MPI_REQUEST_NULL;
  EXPECT_ERROR(MPI_Send(buf, 1, MPI_DATATYPE_NULL, right, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
               "MPI_Send", "datatype=MPI_DATATYPE_NULL");
  EXPECT_ERROR(MPI_Irecv(buf, 2, MPI_DATATYPE_NULL, left, 0, MPI_COMM_WORLD, &r), MPI_ERR_TYPE,
               "MPI_Irecv", "datatype=MPI_DATATYPE_NULL");
  CHECK(r == MPI_REQUEST_NULL);
  EXPECT_ERROR(MPI_Bcast(buf, 2, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Bcast",
               "datatype=MPI_DATATYPE_NULL");
  /* Reductions need a type to reduce, even over nothing (Open MPI refuses it too). */
  EXPECT_ERROR(MPI_Allreduce(NULL, NULL, 0, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD),
               MPI_ERR_TYPE, "MPI_Allreduce", "datatype=MPI_DATATYPE_NULL");
  /* MPI_WCHAR is not reduced (MPICH refuses it). */
  wchar_t w = 1, w_out = 0;
  EXPECT_ERROR(MPI_Allreduce(&w, &w_out, 1, MPI_WCHAR, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP,
               "MPI_Allreduce", "MPI_WCHAR");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  world_ring(&rank, &size, &left, &right);
  char_reductions();
  empty_point_to_point();
  empty_collectives();
  still_errors();
  MPI_Finalize();
  return 0;
}
