/* Persistent point-to-point requests: Send/Ssend/Rsend/Bsend_init and Recv_init started again and
 * again with changing data, alone and in one MPI_Startall/MPI_Waitall with persistent
 * collectives; the completed receive's status (source, tag, count); what Wait/Test and friends
 * do with inactive requests; MPI_Request_free of inactive and active requests; cancel; derived
 * types; MPI_PROC_NULL; MPI_Start errors. Each rank sends to its right neighbour. */
#include <stdlib.h>

#include "expect_error.h"

enum { kInts = 1000, kRounds = 30 };

static int value(int sender, int round, int k) { return mix3(sender, round, k); }

/* Passes a token around the ring on a communicator of its own (no receive here can take it):
 * once it returns, the right neighbour has passed the same point. */
static MPI_Comm token_comm;
static void pass_token(int left, int right) {
  CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_INT, left, 0, NULL, 0, MPI_INT, right, 0, token_comm,
                         MPI_STATUS_IGNORE));
}

static void check_empty(const MPI_Status* st) {
  int count = -1;
  MPI_Get_count(st, MPI_INT, &count);
  CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG && count == 0);
}

/* Each round: new data in the same buffers, one Startall, one Waitall. The receive uses
 * MPI_ANY_TAG and the sender a tag per round, so the status must tell the round's tag. */
static void ring_rounds(int rank, int left, int right) {
  int* out = malloc(kInts * sizeof(int));
  int* in = malloc(kInts * sizeof(int));
  int tag = 0;
  MPI_Request r[2];
  CHECK_MPI(MPI_Recv_init(in, kInts, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD, &r[0]));
  for (int mode = 0; mode < 3; ++mode) {
    check_context("ring of persistent sends in mode %d (standard, synchronous, ready)", mode);
    for (int round = 0; round < kRounds; ++round) {
      /* The tag is fixed at init: a new send request per mode, the receive takes any tag */
      if (round == 0) {
        tag = 10 + mode;
        if (mode == 0)
          CHECK_MPI(MPI_Send_init(out, kInts, MPI_INT, right, tag, MPI_COMM_WORLD, &r[1]));
        if (mode == 1)
          CHECK_MPI(MPI_Ssend_init(out, kInts, MPI_INT, right, tag, MPI_COMM_WORLD, &r[1]));
        if (mode == 2)
          CHECK_MPI(MPI_Rsend_init(out, kInts, MPI_INT, right, tag, MPI_COMM_WORLD, &r[1]));
      }
      for (int k = 0; k < kInts; ++k) out[k] = value(rank, round * 3 + mode, k);
      if (mode == 2) { /* ready mode: the receive is posted before the neighbour sends */
        CHECK_MPI(MPI_Start(&r[0]));
        pass_token(left, right);
        CHECK_MPI(MPI_Start(&r[1]));
      } else {
        CHECK_MPI(MPI_Startall(2, r));
      }
      MPI_Status st[2];
      CHECK_MPI(MPI_Waitall(2, r, st));
      CHECK(r[0] != MPI_REQUEST_NULL && r[1] != MPI_REQUEST_NULL); /* inactive, not freed */
      int count = -1;
      MPI_Get_count(&st[0], MPI_INT, &count);
      CHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == tag && count == kInts);
      for (int k = 0; k < kInts; ++k) CHECK(in[k] == value(left, round * 3 + mode, k));
    }
    CHECK_MPI(MPI_Request_free(&r[1]));
    CHECK(r[1] == MPI_REQUEST_NULL);
  }
  CHECK_MPI(MPI_Request_free(&r[0]));
  free(out);
  free(in);
}

/* Persistent point-to-point and persistent collectives in one Startall and one Waitall. */
static void mixed_with_collectives(int rank, int size, int left, int right) {
  check_context("persistent sends, receives, allreduce and bcast in one MPI_Startall");
  int out[64], in[64], sum_in[4], sum_out[4], bcast[16];
  MPI_Request r[5];
  CHECK_MPI(MPI_Send_init(out, 64, MPI_INT, right, 5, MPI_COMM_WORLD, &r[0]));
  CHECK_MPI(MPI_Allreduce_init(sum_in, sum_out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &r[1]));
  CHECK_MPI(MPI_Recv_init(in, 64, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &r[2]));
  CHECK_MPI(MPI_Bcast_init(bcast, 16, MPI_INT, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r[3]));
  r[4] = MPI_REQUEST_NULL;
  for (int round = 0; round < kRounds; ++round) {
    for (int k = 0; k < 64; ++k) out[k] = value(rank, round, k);
    for (int k = 0; k < 4; ++k) sum_in[k] = rank * (k + 1) + round;
    for (int k = 0; k < 16; ++k) bcast[k] = rank == size - 1 ? value(round, k, 7) : -1;
    CHECK_MPI(MPI_Startall(4, r)); /* Waitall below also gets a null slot */
    MPI_Status st[5];
    CHECK_MPI(MPI_Waitall(5, r, st));
    for (int k = 0; k < 64; ++k) CHECK(in[k] == value(left, round, k));
    CHECK(st[2].MPI_SOURCE == left && st[2].MPI_TAG == 5);
    for (int k = 0; k < 4; ++k) CHECK(sum_out[k] == (k + 1) * size * (size - 1) / 2 + size * round);
    for (int k = 0; k < 16; ++k) CHECK(bcast[k] == value(round, k, 7));
  }
  for (int i = 0; i < 4; ++i) CHECK_MPI(MPI_Request_free(&r[i]));
}

/* Inactive persistent requests: Wait/Test return at once with an empty status; the any/some
 * forms skip them and answer MPI_UNDEFINED when nothing is active. */
static void inactive_requests(int left) {
  check_context("Wait/Test family on inactive persistent requests");
  int buf[4];
  MPI_Request r[3];
  CHECK_MPI(MPI_Recv_init(buf, 4, MPI_INT, left, 0, MPI_COMM_WORLD, &r[0]));
  CHECK_MPI(MPI_Recv_init(buf, 4, MPI_INT, left, 1, MPI_COMM_WORLD, &r[1]));
  r[2] = MPI_REQUEST_NULL;
  MPI_Status st;
  CHECK_MPI(MPI_Wait(&r[0], &st));
  check_empty(&st);
  CHECK(r[0] != MPI_REQUEST_NULL);
  int flag = 0;
  CHECK_MPI(MPI_Test(&r[0], &flag, &st));
  CHECK(flag == 1);
  check_empty(&st);
  int index = 0;
  CHECK_MPI(MPI_Waitany(3, r, &index, &st));
  CHECK(index == MPI_UNDEFINED);
  check_empty(&st);
  flag = 0;
  CHECK_MPI(MPI_Testany(3, r, &index, &flag, &st));
  CHECK(flag == 1 && index == MPI_UNDEFINED);
  int outcount = 0, indices[3];
  CHECK_MPI(MPI_Waitsome(3, r, &outcount, indices, MPI_STATUSES_IGNORE));
  CHECK(outcount == MPI_UNDEFINED);
  CHECK_MPI(MPI_Testsome(3, r, &outcount, indices, MPI_STATUSES_IGNORE));
  CHECK(outcount == MPI_UNDEFINED);
  flag = 0;
  MPI_Status sts[3];
  CHECK_MPI(MPI_Testall(3, r, &flag, sts));
  CHECK(flag == 1);
  for (int i = 0; i < 3; ++i) check_empty(&sts[i]);
  CHECK_MPI(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
  CHECK(r[0] != MPI_REQUEST_NULL && r[1] != MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Request_get_status(r[0], &flag, &st));
  CHECK(flag == 1);
  check_empty(&st);
  CHECK_MPI(MPI_Request_free(&r[0])); /* inactive: released at once */
  CHECK_MPI(MPI_Request_free(&r[1]));
  CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL);
}

/* An active persistent send freed by MPI_Request_free still delivers its message; an active
 * persistent receive cancelled completes as cancelled and can be started again. */
static void free_and_cancel_active(int rank, int left, int right) {
  check_context("MPI_Request_free and MPI_Cancel of active persistent requests");
  int out[256], in[256];
  for (int k = 0; k < 256; ++k) out[k] = value(rank, 77, k);
  MPI_Request send;
  CHECK_MPI(MPI_Send_init(out, 256, MPI_INT, right, 20, MPI_COMM_WORLD, &send));
  CHECK_MPI(MPI_Start(&send));
  CHECK_MPI(MPI_Request_free(&send));
  CHECK(send == MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Recv(in, 256, MPI_INT, left, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  for (int k = 0; k < 256; ++k) CHECK(in[k] == value(left, 77, k));

  MPI_Request recv;
  CHECK_MPI(MPI_Recv_init(in, 256, MPI_INT, left, 21, MPI_COMM_WORLD, &recv));
  CHECK_MPI(MPI_Start(&recv));
  CHECK_MPI(MPI_Cancel(&recv));
  MPI_Status st;
  CHECK_MPI(MPI_Wait(&recv, &st));
  int cancelled = 0;
  MPI_Test_cancelled(&st, &cancelled);
  CHECK(cancelled == 1 && recv != MPI_REQUEST_NULL);
  /* nobody sends tag 21 before every rank's cancel is through */
  pass_token(left, right);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  /* started again, it receives normally */
  CHECK_MPI(MPI_Start(&recv));
  CHECK_MPI(MPI_Send(out, 256, MPI_INT, right, 21, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&recv, &st));
  MPI_Test_cancelled(&st, &cancelled);
  CHECK(cancelled == 0 && st.MPI_SOURCE == left);
  for (int k = 0; k < 256; ++k) CHECK(in[k] == value(left, 77, k));
  CHECK_MPI(MPI_Request_free(&recv));
}

/* A persistent receive of a non-contiguous type, the type freed right after init; a buffered
 * persistent send; both with MPI_PROC_NULL too. */
static void derived_buffered_and_proc_null(int rank, int left, int right) {
  check_context("persistent requests with a vector type, Bsend_init, MPI_PROC_NULL");
  enum { kCount = 300 };
  MPI_Datatype every_third;
  CHECK_MPI(MPI_Type_vector(kCount, 1, 3, MPI_INT, &every_third));
  CHECK_MPI(MPI_Type_commit(&every_third));
  int out[kCount], strided[3 * kCount];
  MPI_Request r[4];
  CHECK_MPI(MPI_Recv_init(strided, 1, every_third, left, 30, MPI_COMM_WORLD, &r[0]));
  CHECK_MPI(MPI_Type_free(&every_third)); /* the request keeps the type */
  const int bytes = kCount * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
  char* attached = malloc((size_t)bytes);
  CHECK_MPI(MPI_Buffer_attach(attached, bytes));
  CHECK_MPI(MPI_Bsend_init(out, kCount, MPI_INT, right, 30, MPI_COMM_WORLD, &r[1]));
  CHECK_MPI(MPI_Recv_init(strided, 1, MPI_INT, MPI_PROC_NULL, 30, MPI_COMM_WORLD, &r[2]));
  CHECK_MPI(MPI_Send_init(out, 1, MPI_INT, MPI_PROC_NULL, 30, MPI_COMM_WORLD, &r[3]));
  for (int round = 0; round < kRounds; ++round) {
    for (int k = 0; k < kCount; ++k) out[k] = value(rank, round, k);
    for (int k = 0; k < 3 * kCount; ++k) strided[k] = -5;
    CHECK_MPI(MPI_Startall(4, r));
    MPI_Status st[4];
    CHECK_MPI(MPI_Waitall(4, r, st));
    for (int k = 0; k < 3 * kCount; ++k)
      CHECK(strided[k] == (k % 3 ? -5 : value(left, round, k / 3)));
    int count = -1;
    MPI_Get_count(&st[2], MPI_INT, &count);
    CHECK(st[2].MPI_SOURCE == MPI_PROC_NULL && st[2].MPI_TAG == MPI_ANY_TAG && count == 0);
    /* this round's message is in: the buffered copy's space is free for the next */
    pass_token(left, right);
  }
  for (int i = 0; i < 4; ++i) CHECK_MPI(MPI_Request_free(&r[i]));
  void* back;
  int back_size;
  CHECK_MPI(MPI_Buffer_detach(&back, &back_size));
  free(attached);
}

static void start_errors(int right) {
  check_context("MPI_Start and MPI_Startall errors");
  int buf[4] = {0};
  MPI_Request r;
  CHECK_MPI(MPI_Send_init(buf, 4, MPI_INT, right, 40, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Start(&r));
  EXPECT_ERROR(MPI_Start(&r), MPI_ERR_REQUEST, "MPI_Start", "already active");
  MPI_Request both[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  EXPECT_ERROR(MPI_Startall(2, both), MPI_ERR_REQUEST, "MPI_Startall", "array_of_requests[0]");
  MPI_Request nonpersistent;
  CHECK_MPI(MPI_Irecv(buf, 4, MPI_INT, MPI_ANY_SOURCE, 40, MPI_COMM_WORLD, &nonpersistent));
  EXPECT_ERROR(MPI_Start(&nonpersistent), MPI_ERR_REQUEST, "MPI_Start", "nonpersistent");
  CHECK_MPI(MPI_Wait(&nonpersistent, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Request_free(&r));
  EXPECT_ERROR(MPI_Send_init(buf, -1, MPI_INT, right, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT,
               "MPI_Send_init", "count=-1");
  EXPECT_ERROR(MPI_Recv_init(buf, 4, MPI_INT, 1 << 20, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK,
               "MPI_Recv_init", "source=1048576");
  EXPECT_ERROR(MPI_Ssend_init(buf, 4, MPI_INT, right, -3, MPI_COMM_WORLD, &r), MPI_ERR_TAG,
               "MPI_Ssend_init", "tag=-3");
  EXPECT_ERROR(MPI_Rsend_init(buf, 4, MPI_DATATYPE_NULL, right, 0, MPI_COMM_WORLD, &r),
               MPI_ERR_TYPE, "MPI_Rsend_init", "datatype");
  EXPECT_ERROR(MPI_Bsend_init(buf, 4, MPI_INT, right, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG,
               "MPI_Bsend_init", "request=NULL");
  EXPECT_ERROR(MPI_Recv_init(buf, 4, MPI_INT, 0, 0, MPI_COMM_NULL, &r), MPI_ERR_COMM,
               "MPI_Recv_init", "MPI_COMM_NULL");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &token_comm));
  ring_rounds(rank, left, right);
  mixed_with_collectives(rank, size, left, right);
  inactive_requests(left);
  free_and_cancel_active(rank, left, right);
  derived_buffered_and_proc_null(rank, left, right);
  start_errors(right);
  CHECK_MPI(MPI_Comm_free(&token_comm));
  MPI_Finalize();
  return 0;
}
