/* Every collective on MPI_COMM_SELF (a one-rank communicator on each rank at once), in all three
 * forms, while a collective on MPI_COMM_WORLD is in flight: results are local copies and the
 * two communicators' traffic never mixes. */
#include <stdlib.h>

#include "coll_check.h"

static int rank, size;

/* Starts (form 1, 2) or runs (form 0) a call; completes it with finish_form. */
#define CALL3(form, blocking, nonblocking, persistent, ...)                                \
  do {                                                                                     \
    MPI_Request req_ = MPI_REQUEST_NULL;                                                   \
    if ((form) == FORM_BLOCKING) CHECK(blocking(__VA_ARGS__) == MPI_SUCCESS);              \
    if ((form) == FORM_NONBLOCKING) CHECK(nonblocking(__VA_ARGS__, &req_) == MPI_SUCCESS); \
    if ((form) == FORM_PERSISTENT)                                                         \
      CHECK(persistent(__VA_ARGS__, MPI_INFO_NULL, &req_) == MPI_SUCCESS);                 \
    finish_form(form, &req_);                                                              \
  } while (0)

enum { N = 100 };
static int in[N], out[N], inout[N];

static void fill(int salt) {
  for (int i = 0; i < N; ++i) {
    in[i] = mix3(rank, i, salt);
    out[i] = -1;
    inout[i] = in[i];
  }
}
static void check_copy(const int* got, int n, int salt) {
  for (int i = 0; i < n; ++i) CHECK(got[i] == mix3(rank, i, salt));
  for (int i = n; i < N; ++i) CHECK(got[i] == -1 || got == inout);
}

static void on_self(int form, int salt) {
  MPI_Comm s = MPI_COMM_SELF;
  int one = N, zero = 0;
  const MPI_Datatype ints = MPI_INT;
  check_context("%s collectives on MPI_COMM_SELF", form_name(form));
  fill(salt);
  CALL3(form, MPI_Barrier, MPI_Ibarrier, MPI_Barrier_init, s);
  CALL3(form, MPI_Bcast, MPI_Ibcast, MPI_Bcast_init, inout, N, MPI_INT, 0, s);
  check_copy(inout, N, salt);
  CALL3(form, MPI_Gather, MPI_Igather, MPI_Gather_init, in, N, MPI_INT, out, N, MPI_INT, 0, s);
  check_copy(out, N, salt);
  fill(salt);
  CALL3(form, MPI_Gatherv, MPI_Igatherv, MPI_Gatherv_init, in, 7, MPI_INT, out, &(int){7}, &zero,
        MPI_INT, 0, s);
  check_copy(out, 7, salt);
  fill(salt);
  CALL3(form, MPI_Scatter, MPI_Iscatter, MPI_Scatter_init, in, N, MPI_INT, out, N, MPI_INT, 0, s);
  check_copy(out, N, salt);
  fill(salt);
  CALL3(form, MPI_Scatterv, MPI_Iscatterv, MPI_Scatterv_init, in, &one, &zero, MPI_INT, out, N,
        MPI_INT, 0, s);
  check_copy(out, N, salt);
  fill(salt);
  CALL3(form, MPI_Allgather, MPI_Iallgather, MPI_Allgather_init, in, N, MPI_INT, out, N, MPI_INT,
        s);
  check_copy(out, N, salt);
  fill(salt);
  CALL3(form, MPI_Allgatherv, MPI_Iallgatherv, MPI_Allgatherv_init, MPI_IN_PLACE, 0, MPI_INT, inout,
        &one, &zero, MPI_INT, s);
  check_copy(inout, N, salt);
  fill(salt);
  CALL3(form, MPI_Alltoall, MPI_Ialltoall, MPI_Alltoall_init, in, N, MPI_INT, out, N, MPI_INT, s);
  check_copy(out, N, salt);
  fill(salt);
  CALL3(form, MPI_Alltoallv, MPI_Ialltoallv, MPI_Alltoallv_init, in, &one, &zero, MPI_INT, out,
        &one, &zero, MPI_INT, s);
  check_copy(out, N, salt);
  fill(salt);
  CALL3(form, MPI_Alltoallw, MPI_Ialltoallw, MPI_Alltoallw_init, in, &one, &zero, &ints, out, &one,
        &zero, &ints, s);
  check_copy(out, N, salt);
  fill(salt);
  CALL3(form, MPI_Reduce, MPI_Ireduce, MPI_Reduce_init, in, out, N, MPI_INT, MPI_PROD, 0, s);
  check_copy(out, N, salt);
  fill(salt);
  CALL3(form, MPI_Allreduce, MPI_Iallreduce, MPI_Allreduce_init, MPI_IN_PLACE, inout, N, MPI_INT,
        MPI_SUM, s);
  check_copy(inout, N, salt);
  fill(salt);
  CALL3(form, MPI_Reduce_scatter, MPI_Ireduce_scatter, MPI_Reduce_scatter_init, in, out, &one,
        MPI_INT, MPI_MAX, s);
  check_copy(out, N, salt);
  fill(salt);
  CALL3(form, MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, MPI_Reduce_scatter_block_init,
        in, out, N, MPI_INT, MPI_BXOR, s);
  check_copy(out, N, salt);
  fill(salt);
  CALL3(form, MPI_Scan, MPI_Iscan, MPI_Scan_init, in, out, N, MPI_INT, MPI_MIN, s);
  check_copy(out, N, salt);
  fill(salt);
  CALL3(form, MPI_Exscan, MPI_Iexscan, MPI_Exscan_init, in, out, N, MPI_INT, MPI_SUM, s);
  for (int i = 0; i < N; ++i) CHECK(out[i] == -1); /* rank 0 of SELF: left alone */
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  world_ring(&rank, &size, NULL, NULL);
  errors_return();
  for (int round = 0; round < 4; ++round) {
    /* A world collective in flight across all the self ones. */
    int* wb = malloc(4096 * sizeof(int));
    CHECK(wb);
    for (int i = 0; i < 4096; ++i) wb[i] = rank == round % size ? mix3(round, i, 3) : -1;
    MPI_Request world_req;
    CHECK_MPI(MPI_Ibcast(wb, 4096, MPI_INT, round % size, MPI_COMM_WORLD, &world_req));
    on_self((round + rank) % NUM_FORMS, round); /* ranks use different forms: all are local */
    CHECK_MPI(MPI_Wait(&world_req, MPI_STATUS_IGNORE));
    check_context("MPI_Ibcast on MPI_COMM_WORLD across the MPI_COMM_SELF collectives");
    for (int i = 0; i < 4096; ++i) CHECK(wb[i] == mix3(round, i, 3));
    free(wb);
  }
  MPI_Finalize();
  return 0;
}
