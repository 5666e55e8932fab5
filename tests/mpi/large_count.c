/* Every large-count (_c) function with ordinary counts gives what its int form gives: the
 * point-to-point calls in all modes, persistent and buffered; the collectives, blocking,
 * nonblocking and persistent, their v-forms with MPI_Count counts and MPI_Aint displacements;
 * MPI_Get_count_c/MPI_Get_elements_c beyond INT_MAX (set with MPI_Status_set_elements_x), where
 * the int forms answer MPI_UNDEFINED; and argument errors naming counts that no int holds.
 * (huge_c.c moves a message of more than INT_MAX bytes.) */
#include <stdlib.h>

#include "expect_error.h"

static int rank, size, left, right;

static int value(int who, int round, int k) { return mix3(who, round, k) % 1000; }

static void point_to_point(void) {
  check_context("point-to-point _c forms");
  enum { n = 50 };
  int out[n], in[n];
  for (int k = 0; k < n; ++k) out[k] = value(rank, 1, k);
  MPI_Request r[2];
  MPI_Status st;
  MPI_Count count = -1;
  /* standard, synchronous, ready, buffered; blocking then nonblocking */
  for (int mode = 0; mode < 8; ++mode) {
    CHECK_MPI(MPI_Irecv_c(in, n, MPI_INT, left, mode, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every receive is posted: ready mode may go */
    static char attached[n * sizeof(int) + MPI_BSEND_OVERHEAD];
    if (mode % 4 == 3) CHECK_MPI(MPI_Buffer_attach_c(attached, (MPI_Count)sizeof attached));
    r[1] = MPI_REQUEST_NULL;
    switch (mode) {
      case 0:
        CHECK_MPI(MPI_Send_c(out, n, MPI_INT, right, mode, MPI_COMM_WORLD));
        break;
      case 1:
        CHECK_MPI(MPI_Ssend_c(out, n, MPI_INT, right, mode, MPI_COMM_WORLD));
        break;
      case 2:
        CHECK_MPI(MPI_Rsend_c(out, n, MPI_INT, right, mode, MPI_COMM_WORLD));
        break;
      case 3:
        CHECK_MPI(MPI_Bsend_c(out, n, MPI_INT, right, mode, MPI_COMM_WORLD));
        break;
      case 4:
        CHECK_MPI(MPI_Isend_c(out, n, MPI_INT, right, mode, MPI_COMM_WORLD, &r[1]));
        break;
      case 5:
        CHECK_MPI(MPI_Issend_c(out, n, MPI_INT, right, mode, MPI_COMM_WORLD, &r[1]));
        break;
      case 6:
        CHECK_MPI(MPI_Irsend_c(out, n, MPI_INT, right, mode, MPI_COMM_WORLD, &r[1]));
        break;
      case 7:
        CHECK_MPI(MPI_Ibsend_c(out, n, MPI_INT, right, mode, MPI_COMM_WORLD, &r[1]));
        break;
    }
    CHECK_MPI(MPI_Wait(&r[0], &st));
    CHECK_MPI(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &count));
    CHECK(count == n && st.MPI_SOURCE == left && st.MPI_TAG == mode);
    for (int k = 0; k < n; ++k) CHECK(in[k] == value(left, 1, k));
    if (mode % 4 == 3) {
      void* back = NULL;
      MPI_Count back_size = 0;
      CHECK_MPI(MPI_Buffer_detach_c(&back, &back_size));
      CHECK(back == attached && back_size == (MPI_Count)sizeof attached);
    }
  }
  CHECK_MPI(
      MPI_Sendrecv_c(out, n, MPI_INT, right, 20, in, n, MPI_INT, left, 20, MPI_COMM_WORLD, &st));
  for (int k = 0; k < n; ++k) CHECK(in[k] == value(left, 1, k));
  for (int k = 0; k < n; ++k) in[k] = value(rank, 2, k);
  CHECK_MPI(MPI_Sendrecv_replace_c(in, n, MPI_INT, right, 21, left, 21, MPI_COMM_WORLD, &st));
  for (int k = 0; k < n; ++k) CHECK(in[k] == value(left, 2, k));
  CHECK_MPI(MPI_Recv_c(in, n, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st));
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL);

  /* the persistent _c forms, in one Startall (no ready mode: nothing orders it here) */
  MPI_Request p[4];
  int ins[3][n];
  CHECK_MPI(MPI_Send_init_c(out, n, MPI_INT, right, 30, MPI_COMM_WORLD, &p[0]));
  CHECK_MPI(MPI_Ssend_init_c(out, n, MPI_INT, right, 31, MPI_COMM_WORLD, &p[1]));
  CHECK_MPI(MPI_Recv_init_c(ins[0], n, MPI_INT, left, 30, MPI_COMM_WORLD, &p[2]));
  CHECK_MPI(MPI_Recv_init_c(ins[1], n, MPI_INT, left, 31, MPI_COMM_WORLD, &p[3]));
  for (int round = 0; round < 3; ++round) {
    for (int k = 0; k < n; ++k) out[k] = value(rank, 10 + round, k);
    CHECK_MPI(MPI_Startall(4, p));
    CHECK_MPI(MPI_Waitall(4, p, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < n; ++k) CHECK(ins[i][k] == value(left, 10 + round, k));
  }
  for (int i = 0; i < 4; ++i) CHECK_MPI(MPI_Request_free(&p[i]));
  MPI_Request rs;
  CHECK_MPI(MPI_Recv_init_c(ins[2], n, MPI_INT, left, 32, MPI_COMM_WORLD, &rs));
  CHECK_MPI(MPI_Start(&rs));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Rsend_init_c(out, n, MPI_INT, right, 32, MPI_COMM_WORLD, &p[0]));
  static char attached[n * sizeof(int) + MPI_BSEND_OVERHEAD];
  CHECK_MPI(MPI_Buffer_attach(attached, sizeof attached));
  CHECK_MPI(MPI_Bsend_init_c(out, n, MPI_INT, right, 33, MPI_COMM_WORLD, &p[1]));
  CHECK_MPI(MPI_Startall(2, p));
  CHECK_MPI(MPI_Recv_c(in, n, MPI_INT, left, 33, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Waitall(2, p, MPI_STATUSES_IGNORE));
  CHECK_MPI(MPI_Wait(&rs, MPI_STATUS_IGNORE));
  for (int k = 0; k < n; ++k) CHECK(in[k] == value(left, 12, k) && ins[2][k] == in[k]);
  for (int i = 0; i < 2; ++i) CHECK_MPI(MPI_Request_free(&p[i]));
  CHECK_MPI(MPI_Request_free(&rs));
  void* back;
  int back_size;
  CHECK_MPI(MPI_Buffer_detach(&back, &back_size));
}

/* Counts that no int holds, in a status: the _c queries tell them, the int ones cannot. */
static void status_counts(void) {
  check_context("MPI_Get_count_c/MPI_Get_elements_c beyond INT_MAX");
  MPI_Status st;
  const MPI_Count big = 3000000000LL;
  CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_BYTE, big));
  MPI_Count c = 0;
  int i = 0;
  CHECK_MPI(MPI_Get_count_c(&st, MPI_BYTE, &c));
  CHECK(c == big);
  CHECK_MPI(MPI_Get_elements_c(&st, MPI_BYTE, &c));
  CHECK(c == big);
  CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &i));
  CHECK(i == MPI_UNDEFINED);
  CHECK_MPI(MPI_Get_elements(&st, MPI_BYTE, &i));
  CHECK(i == MPI_UNDEFINED);
  CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_INT, 1000000000LL)); /* 4e9 bytes */
  CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &c));
  CHECK(c == 1000000000LL);
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &i));
  CHECK(i == 1000000000);
  CHECK_MPI(MPI_Get_count_c(&st, MPI_SHORT, &c));
  CHECK(c == 2000000000LL);
  MPI_Datatype triple, pair;
  CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &triple));
  CHECK_MPI(MPI_Type_commit(&triple));
  CHECK_MPI(MPI_Get_count_c(&st, triple, &c)); /* 4e9 bytes are no whole number of 12 */
  CHECK(c == MPI_UNDEFINED);
  CHECK_MPI(MPI_Get_elements_c(&st, triple, &c)); /* but a whole number of ints */
  CHECK(c == 1000000000LL);
  CHECK_MPI(MPI_Type_free(&triple));
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  CHECK_MPI(MPI_Get_elements_c(&st, pair, &c));
  CHECK(c == 1000000000LL);
  CHECK_MPI(MPI_Get_count_c(&st, pair, &c));
  CHECK(c == 500000000LL);
  CHECK_MPI(MPI_Type_free(&pair));
}

/* Each collective's _c form against the values its int form would give. */
static void collectives(void) {
  check_context("collective _c forms");
  const int n = 7;
  int send[64], recv[64];
  /* bcast (blocking, persistent) */
  for (int k = 0; k < n; ++k) recv[k] = rank == 0 ? value(0, 3, k) : -1;
  CHECK_MPI(MPI_Bcast_c(recv, n, MPI_INT, 0, MPI_COMM_WORLD));
  for (int k = 0; k < n; ++k) CHECK(recv[k] == value(0, 3, k));
  MPI_Request r;
  CHECK_MPI(MPI_Bcast_init_c(recv, n, MPI_INT, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int round = 0; round < 2; ++round) {
    for (int k = 0; k < n; ++k) recv[k] = rank == size - 1 ? value(round, 4, k) : -1;
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int k = 0; k < n; ++k) CHECK(recv[k] == value(round, 4, k));
  }
  CHECK_MPI(MPI_Request_free(&r));
  /* reductions: allreduce (blocking, nonblocking), reduce, scan, exscan */
  for (int k = 0; k < n; ++k) send[k] = rank * 10 + k;
  CHECK_MPI(MPI_Allreduce_c(send, recv, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  for (int k = 0; k < n; ++k) CHECK(recv[k] == 10 * size * (size - 1) / 2 + size * k);
  CHECK_MPI(MPI_Iallreduce_c(send, recv, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  for (int k = 0; k < n; ++k) CHECK(recv[k] == (size - 1) * 10 + k);
  for (int k = 0; k < n; ++k) recv[k] = -1;
  CHECK_MPI(MPI_Reduce_c(send, recv, n, MPI_INT, MPI_MIN, size - 1, MPI_COMM_WORLD));
  for (int k = 0; k < n; ++k) CHECK(rank != size - 1 || recv[k] == k);
  CHECK_MPI(MPI_Scan_c(send, recv, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  for (int k = 0; k < n; ++k) CHECK(recv[k] == 10 * rank * (rank + 1) / 2 + (rank + 1) * k);
  CHECK_MPI(MPI_Exscan_c(send, recv, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  for (int k = 0; k < n; ++k) CHECK(rank == 0 || recv[k] == 10 * rank * (rank - 1) / 2 + rank * k);
  /* reduce_scatter_block: 2 per rank; reduce_scatter: rank i gets i % 3 elements */
  for (int k = 0; k < 2 * size; ++k) send[k] = rank + k;
  CHECK_MPI(MPI_Reduce_scatter_block_c(send, recv, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  for (int k = 0; k < 2; ++k) CHECK(recv[k] == size * (size - 1) / 2 + size * (2 * rank + k));
  MPI_Count counts[8], counts2[8];
  MPI_Aint displs[8], displs2[8];
  MPI_Count total = 0;
  for (int i = 0; i < size; ++i) {
    counts[i] = i % 3;
    total += counts[i];
  }
  for (int k = 0; k < total; ++k) send[k] = rank * k;
  CHECK_MPI(MPI_Reduce_scatter_c(send, recv, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  MPI_Count first = 0;
  for (int i = 0; i < rank; ++i) first += counts[i];
  for (int k = 0; k < counts[rank]; ++k) CHECK(recv[k] == (int)(first + k) * size * (size - 1) / 2);
  /* gather/scatter/allgather/alltoall, 3 per rank */
  for (int k = 0; k < 3; ++k) send[k] = value(rank, 5, k);
  CHECK_MPI(MPI_Allgather_c(send, 3, MPI_INT, recv, 3, MPI_INT, MPI_COMM_WORLD));
  for (int i = 0; i < size; ++i)
    for (int k = 0; k < 3; ++k) CHECK(recv[3 * i + k] == value(i, 5, k));
  for (int k = 0; k < 3 * size; ++k) recv[k] = -1;
  CHECK_MPI(MPI_Gather_c(send, 3, MPI_INT, recv, 3, MPI_INT, 0, MPI_COMM_WORLD));
  for (int i = 0; rank == 0 && i < size; ++i)
    for (int k = 0; k < 3; ++k) CHECK(recv[3 * i + k] == value(i, 5, k));
  for (int k = 0; k < 3 * size; ++k) send[k] = value(0, 6, k);
  CHECK_MPI(MPI_Scatter_c(send, 3, MPI_INT, recv, 3, MPI_INT, 0, MPI_COMM_WORLD));
  for (int k = 0; k < 3; ++k) CHECK(recv[k] == value(0, 6, 3 * rank + k));
  for (int i = 0; i < size; ++i)
    for (int k = 0; k < 2; ++k) send[2 * i + k] = value(rank, i, k);
  CHECK_MPI(MPI_Alltoall_c(send, 2, MPI_INT, recv, 2, MPI_INT, MPI_COMM_WORLD));
  for (int i = 0; i < size; ++i)
    for (int k = 0; k < 2; ++k) CHECK(recv[2 * i + k] == value(i, rank, k));
  /* v-forms: rank i's block holds i % 3 + 1 ints, placed with a gap of one int after each */
  MPI_Aint at = 0;
  for (int i = 0; i < size; ++i) {
    counts[i] = i % 3 + 1;
    displs[i] = at;
    at += counts[i] + 1;
  }
  for (int k = 0; k < counts[rank]; ++k) send[k] = value(rank, 7, k);
  for (int k = 0; k < at; ++k) recv[k] = -1;
  CHECK_MPI(
      MPI_Allgatherv_c(send, counts[rank], MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD));
  for (int i = 0; i < size; ++i)
    for (int k = 0; k < counts[i]; ++k) CHECK(recv[displs[i] + k] == value(i, 7, k));
  for (int k = 0; k < at; ++k) recv[k] = -1;
  CHECK_MPI(MPI_Gatherv_c(send, counts[rank], MPI_INT, recv, counts, displs, MPI_INT, size - 1,
                          MPI_COMM_WORLD));
  for (int i = 0; rank == size - 1 && i < size; ++i)
    for (int k = 0; k < counts[i]; ++k) CHECK(recv[displs[i] + k] == value(i, 7, k));
  for (int k = 0; k < at; ++k) send[k] = value(size - 1, 8, k);
  CHECK_MPI(MPI_Scatterv_c(send, counts, displs, MPI_INT, recv, counts[rank], MPI_INT, size - 1,
                           MPI_COMM_WORLD));
  for (int k = 0; k < counts[rank]; ++k) CHECK(recv[k] == value(size - 1, 8, displs[rank] + k));
  /* alltoallv/w: to peer i, i % 2 + 1 ints at a gapped offset; from peer i, rank % 2 + 1 */
  MPI_Aint sat = 0, rat = 0;
  MPI_Datatype types[8];
  MPI_Aint byte_displs[8], byte_displs2[8];
  for (int i = 0; i < size; ++i) {
    counts[i] = i % 2 + 1;
    displs[i] = sat;
    sat += counts[i] + 1;
    counts2[i] = rank % 2 + 1;
    displs2[i] = rat;
    rat += counts2[i] + 2;
    types[i] = MPI_INT;
    byte_displs[i] = displs[i] * (MPI_Aint)sizeof(int);
    byte_displs2[i] = displs2[i] * (MPI_Aint)sizeof(int);
  }
  for (int i = 0; i < size; ++i)
    for (int k = 0; k < counts[i]; ++k) send[displs[i] + k] = value(rank, 20 + i, k);
  for (int form = 0; form < 2; ++form) {
    for (int k = 0; k < rat; ++k) recv[k] = -1;
    if (form == 0) {
      CHECK_MPI(MPI_Alltoallv_c(send, counts, displs, MPI_INT, recv, counts2, displs2, MPI_INT,
                                MPI_COMM_WORLD));
    } else {
      CHECK_MPI(MPI_Alltoallw_c(send, counts, byte_displs, types, recv, counts2, byte_displs2,
                                types, MPI_COMM_WORLD));
    }
    for (int i = 0; i < size; ++i)
      for (int k = 0; k < counts2[i]; ++k) CHECK(recv[displs2[i] + k] == value(i, 20 + rank, k));
  }
}

static void errors(void) {
  check_context("argument errors of the _c forms");
  int buf[4] = {0};
  const MPI_Count big = 3000000000LL;
  EXPECT_ERROR(MPI_Send_c(buf, -5, MPI_INT, right, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Send_c",
               "count=-5");
  EXPECT_ERROR(MPI_Recv_c(NULL, big, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
               MPI_ERR_BUFFER, "MPI_Recv_c", "3000000000");
  EXPECT_ERROR(MPI_Isend_c(buf, 1, MPI_INT, right, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG,
               "MPI_Isend_c", "request=NULL");
  EXPECT_ERROR(MPI_Irecv_c(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &(MPI_Request){0}),
               MPI_ERR_RANK, "MPI_Irecv_c", "source=");
  EXPECT_ERROR(MPI_Sendrecv_c(buf, 1, MPI_INT, right, 0, buf, -2, MPI_INT, left, 0, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE),
               MPI_ERR_COUNT, "MPI_Sendrecv_c", "recvcount=-2");
  EXPECT_ERROR(MPI_Get_count_c(NULL, MPI_INT, &(MPI_Count){0}), MPI_ERR_ARG, "MPI_Get_count_c",
               "status=NULL");
  EXPECT_ERROR(MPI_Bcast_c(buf, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Bcast_c",
               "count=-1");
  EXPECT_ERROR(MPI_Allreduce_c(NULL, buf, big, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER,
               "MPI_Allreduce_c", "3000000000");
  MPI_Count counts[8];
  MPI_Aint displs[8];
  for (int i = 0; i < size; ++i) {
    counts[i] = 0;
    displs[i] = 0;
  }
  counts[size - 1] = -4;
  EXPECT_ERROR(MPI_Allgatherv_c(buf, 0, MPI_INT, buf, counts, displs, MPI_INT, MPI_COMM_WORLD),
               MPI_ERR_COUNT, "MPI_Allgatherv_c", "=-4");
  counts[size - 1] = 0;
  displs[0] = -8;
  EXPECT_ERROR(
      MPI_Alltoallv_c(buf, counts, displs, MPI_INT, buf, counts, displs, MPI_INT, MPI_COMM_WORLD),
      MPI_ERR_ARG, "MPI_Alltoallv_c", "displs[0]=-8");
  EXPECT_ERROR(MPI_Buffer_attach_c(buf, -1), MPI_ERR_ARG, "MPI_Buffer_attach_c", "size=-1");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  world_ring(&rank, &size, &left, &right);
  CHECK(size <= 8);
  point_to_point();
  status_counts();
  collectives();
  errors();
  MPI_Finalize();
  return 0;
}
