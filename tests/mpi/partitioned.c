/* Partitioned communication (MPI 4.1 chapter 4): every rank sends to its right neighbour and
 * receives from its left, with equal and different partition counts on the two sides,
 * partitions readied out of order, several rounds restarted with MPI_Start, MPI_Parrived
 * polled while the rest of the data is not ready, derived datatypes on either side, init calls
 * matched in order, MPI_PROC_NULL, and the error paths. */
#include <sched.h>
#include <stdlib.h>

#include "expect_error.h"

static int rank, size, left, right;

static int value(int src, int round, int i) { return mix3(src, round, i) & 0xffffff; }

/* Polls MPI_Parrived until `partition` of `req` has arrived. */
static void wait_arrived(MPI_Request req, int partition) {
  int flag = 0;
  for (;;) {
    CHECK_MPI(MPI_Parrived(req, partition, &flag));
    if (flag) return;
    sched_yield();
  }
}

/* send_parts × (total/send_parts) ints to the right, recv_parts × (total/recv_parts) from the
 * left, for `rounds` rounds, readying partitions in a rotated order (one by one, as a range and
 * as a list), and checking each receive partition when MPI_Parrived reports it. */
static void exchange(int send_parts, int recv_parts, int total, int rounds) {
  check_context("exchange: %d send partitions, %d receive partitions, %d ints", send_parts,
                recv_parts, total);
  int* out = malloc(sizeof(int) * (size_t)total);
  int* in = malloc(sizeof(int) * (size_t)total);
  MPI_Request req[2];
  CHECK_MPI(MPI_Precv_init(in, recv_parts, total / recv_parts, MPI_INT, left, 7, MPI_COMM_WORLD,
                           MPI_INFO_NULL, &req[0]));
  CHECK_MPI(MPI_Psend_init(out, send_parts, total / send_parts, MPI_INT, right, 7, MPI_COMM_WORLD,
                           MPI_INFO_NULL, &req[1]));
  for (int round = 0; round < rounds; ++round) {
    for (int i = 0; i < total; ++i) out[i] = value(rank, round, i);
    for (int i = 0; i < total; ++i) in[i] = -1;
    CHECK_MPI(MPI_Startall(2, req));
    if (round % 3 == 0) { /* one by one, last first */
      for (int p = send_parts - 1; p >= 0; --p) CHECK_MPI(MPI_Pready(p, req[1]));
    } else if (round % 3 == 1) { /* upper half as a range, then the lower half */
      CHECK_MPI(MPI_Pready_range(send_parts / 2, send_parts - 1, req[1]));
      if (send_parts / 2 > 0) CHECK_MPI(MPI_Pready_range(0, send_parts / 2 - 1, req[1]));
    } else { /* a list, odd partitions first */
      int list[64], n = 0;
      for (int p = 1; p < send_parts; p += 2) list[n++] = p;
      for (int p = 0; p < send_parts; p += 2) list[n++] = p;
      CHECK_MPI(MPI_Pready_list(n, list, req[1]));
    }
    const int per = total / recv_parts;
    for (int p = recv_parts - 1; p >= 0; --p) {
      wait_arrived(req[0], p);
      for (int i = p * per; i < (p + 1) * per; ++i) CHECK(in[i] == value(left, round, i));
    }
    MPI_Status st[2];
    CHECK_MPI(MPI_Waitall(2, req, st));
    CHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == 7);
    int n = -1;
    MPI_Get_count(&st[0], MPI_INT, &n);
    CHECK(n == total);
    for (int i = 0; i < total; ++i) CHECK(in[i] == value(left, round, i));
  }
  CHECK(req[0] != MPI_REQUEST_NULL && req[1] != MPI_REQUEST_NULL); /* persistent */
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
  free(out);
  free(in);
}

/* Partition 0 moves on its own: every rank readies only partition 0, sees it arrive, and sees
 * that partition 1 has not (its sender readies it only after the barrier). */
static void early_partition(void) {
  check_context("partition 0 arrives before the others are ready");
  int out[8], in[8];
  for (int i = 0; i < 8; ++i) out[i] = value(rank, 99, i);
  MPI_Request req[2];
  CHECK_MPI(MPI_Psend_init(out, 4, 2, MPI_INT, right, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
  CHECK_MPI(MPI_Precv_init(in, 4, 2, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]));
  CHECK_MPI(MPI_Startall(2, req));
  CHECK_MPI(MPI_Pready(0, req[0]));
  wait_arrived(req[1], 0);
  CHECK(in[0] == value(left, 99, 0) && in[1] == value(left, 99, 1));
  int flag = 1;
  CHECK_MPI(MPI_Parrived(req[1], 1, &flag));
  CHECK(flag == 0);
  int done = 1;
  CHECK_MPI(MPI_Test(&req[1], &done, MPI_STATUS_IGNORE));
  CHECK(done == 0);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_Pready_range(1, 3, req[0]));
  /* Request_get_status until the receive is complete, then Wait (it stays allocated). */
  for (flag = 0; !flag;) CHECK_MPI(MPI_Request_get_status(req[1], &flag, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
  for (int i = 0; i < 8; ++i) CHECK(in[i] == value(left, 99, i));
  CHECK_MPI(MPI_Parrived(req[1], 3, &flag)); /* inactive: everything is in */
  CHECK(flag == 1);
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
}

/* Non-contiguous layouts: the send side takes every other int, the receive side every third. */
static void derived_types(void) {
  check_context("derived datatypes on both sides");
  MPI_Datatype every2, every3;
  MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &every2);
  MPI_Type_create_resized(MPI_INT, 0, 3 * sizeof(int), &every3);
  MPI_Type_commit(&every2);
  MPI_Type_commit(&every3);
  int out[2 * 12], in[3 * 12];
  MPI_Request req[2];
  CHECK_MPI(MPI_Psend_init(out, 4, 3, every2, right, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
  CHECK_MPI(MPI_Precv_init(in, 2, 6, every3, left, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]));
  MPI_Type_free(&every2); /* the requests keep the types alive */
  MPI_Type_free(&every3);
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 24; ++i) out[i] = (i % 2) ? -5 : value(rank, round, i / 2);
    for (int i = 0; i < 36; ++i) in[i] = -1;
    CHECK_MPI(MPI_Startall(2, req));
    const int order[4] = {2, 0, 3, 1};
    CHECK_MPI(MPI_Pready_list(4, order, req[0]));
    wait_arrived(req[1], 1);
    for (int i = 6; i < 12; ++i) CHECK(in[3 * i] == value(left, round, i));
    CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 36; ++i) CHECK(in[i] == (i % 3 ? -1 : value(left, round, i / 3)));
  }
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
}

/* Init calls pair in order: the first send to a neighbour with a tag meets its first receive
 * with that tag, whatever other pairs are set up in between. */
static void init_order(void) {
  check_context("init calls pair in order");
  int out[3][4], in[3][4];
  MPI_Request req[6];
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < 4; ++i) out[k][i] = value(rank, k, i);
    CHECK_MPI(MPI_Psend_init(out[k], 2, 2, MPI_INT, right, k == 2 ? 11 : 10, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &req[k]));
  }
  /* Receives posted in another order: tag 11 first, then the two tag-10 ones in order. */
  CHECK_MPI(MPI_Precv_init(in[2], 1, 4, MPI_INT, left, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &req[3]));
  CHECK_MPI(MPI_Precv_init(in[0], 4, 1, MPI_INT, left, 10, MPI_COMM_WORLD, MPI_INFO_NULL, &req[4]));
  CHECK_MPI(MPI_Precv_init(in[1], 2, 2, MPI_INT, left, 10, MPI_COMM_WORLD, MPI_INFO_NULL, &req[5]));
  CHECK_MPI(MPI_Startall(6, req));
  for (int k = 0; k < 3; ++k) CHECK_MPI(MPI_Pready_range(0, 1, req[k]));
  /* Waitany/Waitsome/Testall complete them. */
  int index = -1, outcount = 0, indices[6], flag = 0;
  CHECK_MPI(MPI_Waitany(6, req, &index, MPI_STATUS_IGNORE));
  CHECK(index >= 0 && index < 6);
  CHECK_MPI(MPI_Waitsome(6, req, &outcount, indices, MPI_STATUSES_IGNORE));
  while (!flag) CHECK_MPI(MPI_Testall(6, req, &flag, MPI_STATUSES_IGNORE));
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 4; ++i) CHECK(in[k][i] == value(left, k, i));
  for (int k = 0; k < 6; ++k) MPI_Request_free(&req[k]);
}

static void proc_null(void) {
  check_context("MPI_PROC_NULL");
  int buf[4] = {1, 2, 3, 4};
  MPI_Request req[2];
  CHECK_MPI(
      MPI_Psend_init(buf, 2, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
  CHECK_MPI(
      MPI_Precv_init(buf, 2, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]));
  CHECK_MPI(MPI_Startall(2, req));
  CHECK_MPI(MPI_Pready_range(0, 1, req[0]));
  MPI_Status st;
  CHECK_MPI(MPI_Wait(&req[1], &st));
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL);
  CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
  CHECK(buf[0] == 1 && buf[3] == 4);
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
}

static void errors(void) {
  check_context("error paths");
  int buf[8], in[8];
  MPI_Request send, recv, plain;
  EXPECT_ERROR(MPI_Psend_init(buf, -1, 2, MPI_INT, right, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &send),
               MPI_ERR_ARG, "MPI_Psend_init", "partitions=-1");
  EXPECT_ERROR(
      MPI_Precv_init(in, 2, 2, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &recv),
      MPI_ERR_RANK, "MPI_Precv_init", "MPI_ANY_SOURCE");
  EXPECT_ERROR(
      MPI_Precv_init(in, 2, 2, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &recv),
      MPI_ERR_TAG, "MPI_Precv_init", "MPI_ANY_TAG");
  EXPECT_ERROR(MPI_Psend_init(buf, 2, 2, MPI_INT, size, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &send),
               MPI_ERR_RANK, "MPI_Psend_init", "dest");
  CHECK_MPI(MPI_Psend_init(buf, 4, 2, MPI_INT, right, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &send));
  CHECK_MPI(MPI_Precv_init(in, 4, 2, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &recv));
  EXPECT_ERROR(MPI_Pready(0, send), MPI_ERR_REQUEST, "MPI_Pready", "inactive");
  CHECK_MPI(MPI_Startall(1, &send));
  CHECK_MPI(MPI_Start(&recv));
  EXPECT_ERROR(MPI_Pready(4, send), MPI_ERR_ARG, "MPI_Pready", "partition=4");
  EXPECT_ERROR(MPI_Pready_range(2, 9, send), MPI_ERR_ARG, "MPI_Pready_range", "partition_high=9");
  const int bad_list[2] = {1, -3};
  EXPECT_ERROR(MPI_Pready_list(2, bad_list, send), MPI_ERR_ARG, "MPI_Pready_list",
               "array_of_partitions[1]=-3");
  EXPECT_ERROR(MPI_Pready(1, send), MPI_ERR_REQUEST, "MPI_Pready", "partition 1 was marked ready");
  EXPECT_ERROR(MPI_Pready(2, recv), MPI_ERR_REQUEST, "MPI_Pready", "partitioned receive");
  int flag = 0;
  EXPECT_ERROR(MPI_Parrived(send, 0, &flag), MPI_ERR_REQUEST, "MPI_Parrived", "partitioned send");
  EXPECT_ERROR(MPI_Parrived(recv, 4, &flag), MPI_ERR_ARG, "MPI_Parrived", "partition=4");
  EXPECT_ERROR(MPI_Start(&send), MPI_ERR_REQUEST, "MPI_Start", "already active");
  CHECK_MPI(MPI_Irecv(buf, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &plain));
  EXPECT_ERROR(MPI_Parrived(plain, 0, &flag), MPI_ERR_REQUEST, "MPI_Parrived",
               "not a partitioned receive");
  CHECK_MPI(MPI_Wait(&plain, MPI_STATUS_IGNORE));
  const int rest[3] = {0, 2, 3};
  CHECK_MPI(MPI_Pready_list(3, rest, send));
  CHECK_MPI(MPI_Wait(&send, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&recv, MPI_STATUS_IGNORE));
  MPI_Request_free(&send);
  MPI_Request_free(&recv);

  /* Sizes that differ: 4 ints sent, 5 expected. Both sides' rounds fail. */
  check_context("error paths: sizes differ");
  CHECK_MPI(MPI_Psend_init(buf, 2, 2, MPI_INT, right, 2, MPI_COMM_WORLD, MPI_INFO_NULL, &send));
  CHECK_MPI(MPI_Precv_init(in, 1, 5, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_INFO_NULL, &recv));
  CHECK_MPI(MPI_Start(&send));
  CHECK_MPI(MPI_Start(&recv));
  CHECK_MPI(MPI_Pready_range(0, 1, send));
  EXPECT_ERROR(MPI_Wait(&send, MPI_STATUS_IGNORE), MPI_ERR_OTHER, "MPI_Wait",
               "type signatures differ");
  EXPECT_ERROR(MPI_Wait(&recv, MPI_STATUS_IGNORE), MPI_ERR_OTHER, "MPI_Wait",
               "type signatures differ");
  MPI_Request_free(&send);
  MPI_Request_free(&recv);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  world_ring(&rank, &size, &left, &right);
  errors_return();
  exchange(4, 4, 32, 4);   /* equal partition counts */
  exchange(6, 3, 24, 3);   /* more send partitions than receive partitions */
  exchange(3, 8, 24, 3);   /* fewer, and not aligned with them */
  exchange(1, 1, 4096, 2); /* one large partition (rendezvous sizes) */
  early_partition();
  derived_types();
  init_order();
  proc_null();
  errors();
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("partitioned: ok\n");
  MPI_Finalize();
  return 0;
}
