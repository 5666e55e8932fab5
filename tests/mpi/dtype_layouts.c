/* Send and receive types with the same signature but different layouts (vector -> contiguous,
 * indexed -> subarray, every send mode), MPI_Sendrecv_replace with a vector, counts of partial
 * messages (MPI_Get_count = MPI_UNDEFINED, MPI_Get_elements exact), truncation into a derived
 * type (only the error is defined, MPI 4.0 §3.2.4), and MPI_Probe before a derived-type receive. */
#include "check.h"

enum { N = 24 };

static int item(int rank, int i) { return rank * 1000 + i; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  int src[N], dst[N];
  for (int i = 0; i < N; ++i) src[i] = item(rank, i);

  check_context("every send mode with a strided vector, received contiguously");
  MPI_Datatype evens; /* src[0], src[2], ..., src[22] */
  CHECK_MPI(MPI_Type_vector(N / 2, 1, 2, MPI_INT, &evens));
  CHECK_MPI(MPI_Type_commit(&evens));
  for (int mode = 0; mode < 6; ++mode) {
    memset(dst, 0, sizeof dst);
    MPI_Request recv, send = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Irecv(dst, N / 2, MPI_INT, left, mode, MPI_COMM_WORLD, &recv));
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted: ready mode is legal */
    switch (mode) {
      case 0: CHECK_MPI(MPI_Send(src, 1, evens, right, mode, MPI_COMM_WORLD)); break;
      case 1: CHECK_MPI(MPI_Ssend(src, 1, evens, right, mode, MPI_COMM_WORLD)); break;
      case 2: CHECK_MPI(MPI_Rsend(src, 1, evens, right, mode, MPI_COMM_WORLD)); break;
      case 3: CHECK_MPI(MPI_Isend(src, 1, evens, right, mode, MPI_COMM_WORLD, &send)); break;
      case 4: CHECK_MPI(MPI_Issend(src, 1, evens, right, mode, MPI_COMM_WORLD, &send)); break;
      case 5: CHECK_MPI(MPI_Irsend(src, 1, evens, right, mode, MPI_COMM_WORLD, &send)); break;
    }
    CHECK_MPI(MPI_Wait(&send, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&recv, MPI_STATUS_IGNORE));
    for (int i = 0; i < N / 2; ++i) CHECK(dst[i] == item(left, 2 * i));
  }

  check_context("indexed send into a 2-D subarray receive");
  const int lens[3] = {2, 3, 1}, displs[3] = {20, 3, 11}; /* 20 21 3 4 5 11 */
  MPI_Datatype picked;
  CHECK_MPI(MPI_Type_indexed(3, lens, displs, MPI_INT, &picked));
  CHECK_MPI(MPI_Type_commit(&picked));
  const int sizes[2] = {4, 6}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
  MPI_Datatype block;
  CHECK_MPI(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &block));
  CHECK_MPI(MPI_Type_commit(&block));
  memset(dst, 0, sizeof dst);
  CHECK_MPI(MPI_Sendrecv(src, 1, picked, right, 10, dst, 1, block, left, 10, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE));
  const int order[6] = {20, 21, 3, 4, 5, 11};
  const int where[6] = {8, 9, 10, 14, 15, 16}; /* rows 1-2, columns 2-4 of a 4 x 6 array */
  for (int k = 0; k < 6; ++k) CHECK(dst[where[k]] == item(left, order[k]));
  CHECK(dst[0] == 0 && dst[11] == 0 && dst[17] == 0);

  check_context("MPI_Sendrecv_replace with a vector");
  int buf[N];
  for (int i = 0; i < N; ++i) buf[i] = item(rank, i);
  CHECK_MPI(MPI_Sendrecv_replace(buf, 1, evens, right, 20, left, 20, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE));
  for (int i = 0; i < N; ++i) CHECK(buf[i] == item(i % 2 == 0 ? left : rank, i));

  check_context("a message that is not a whole number of receive elements");
  MPI_Datatype pair;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  MPI_Datatype spaced_pairs; /* pairs of ints with a gap of one int */
  CHECK_MPI(MPI_Type_create_resized(pair, 0, 3 * sizeof(int), &spaced_pairs));
  CHECK_MPI(MPI_Type_commit(&spaced_pairs));
  MPI_Status st;
  for (int i = 0; i < N; ++i) dst[i] = -1;
  CHECK_MPI(MPI_Sendrecv(src, 5, MPI_INT, right, 30, dst, 4, spaced_pairs, left, 30,
                         MPI_COMM_WORLD, &st));
  int count = 0;
  CHECK_MPI(MPI_Get_count(&st, spaced_pairs, &count));
  CHECK(count == MPI_UNDEFINED);
  CHECK_MPI(MPI_Get_elements(&st, spaced_pairs, &count));
  CHECK(count == 5);
  MPI_Count big_count = 0;
  CHECK_MPI(MPI_Get_elements_x(&st, spaced_pairs, &big_count));
  CHECK(big_count == 5);
  const int landed[6] = {item(left, 0), item(left, 1), -1, item(left, 2), item(left, 3), -1};
  check_ints(dst, landed, 6, "short message unpacked");
  CHECK(dst[6] == item(left, 4) && dst[7] == -1);

  check_context("a message longer than a derived receive type");
  int small[6];
  for (int i = 0; i < 6; ++i) small[i] = -1;
  const int rc = MPI_Sendrecv(src, 7, MPI_INT, right, 40, small, 2, spaced_pairs, left, 40,
                              MPI_COMM_WORLD, &st);
  CHECK(error_class(rc) == MPI_ERR_TRUNCATE);
  CHECK(small[2] == -1 && small[5] == -1); /* the gaps stay untouched */

  check_context("MPI_Probe, then a receive with a derived type");
  CHECK_MPI(MPI_Send(src, 6, MPI_INT, right, 50, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Probe(left, 50, MPI_COMM_WORLD, &st));
  CHECK_MPI(MPI_Get_count(&st, pair, &count));
  CHECK(count == 3);
  CHECK_MPI(MPI_Get_count(&st, spaced_pairs, &count));
  CHECK(count == 3);
  for (int i = 0; i < N; ++i) dst[i] = -1;
  CHECK_MPI(MPI_Recv(dst, count, spaced_pairs, left, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  for (int p = 0; p < 3; ++p) {
    CHECK(dst[3 * p] == item(left, 2 * p) && dst[3 * p + 1] == item(left, 2 * p + 1));
    CHECK(dst[3 * p + 2] == -1);
  }

  check_context("MPI_PROC_NULL and zero counts with derived types");
  CHECK_MPI(MPI_Send(src, 1, evens, MPI_PROC_NULL, 60, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Recv(dst, 3, evens, MPI_PROC_NULL, 60, MPI_COMM_WORLD, &st));
  CHECK_MPI(MPI_Get_count(&st, evens, &count));
  CHECK(count == 0);
  CHECK_MPI(MPI_Sendrecv(src, 0, evens, right, 61, dst, 0, evens, left, 61, MPI_COMM_WORLD, &st));

  MPI_Datatype all[5] = {evens, picked, block, pair, spaced_pairs};
  for (int i = 0; i < 5; ++i) CHECK_MPI(MPI_Type_free(&all[i]));
  MPI_Finalize();
  return 0;
}
