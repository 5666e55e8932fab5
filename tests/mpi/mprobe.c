/* Matched probe: MPI_Mprobe/MPI_Improbe take a message out of matching, and only MPI_Mrecv/
 * MPI_Imrecv of the returned handle receive it: with MPI_ANY_SOURCE from several senders and a
 * wildcard receive posted in between, every message arrives exactly once and the matched one is
 * the one probed. Also Improbe polling, Imrecv, derived types, zero-byte and rendezvous-sized
 * messages, MPI_PROC_NULL (MPI_MESSAGE_NO_PROC), truncation and bad handles. */
#include <stdlib.h>

#include "expect_error.h"

enum { kPerSender = 20, kInts = 64 };

/* The payload of sender s's message m: word 0 says who and which, the rest is checkable. */
static void fill(int* buf, int n, int sender, int m) {
  for (int k = 0; k < n; ++k) buf[k] = k == 0 ? sender * 1000 + m : mix3(sender, m, k);
}
static void check_payload(const int* buf, int n, int sender, int m) {
  CHECK(n == 0 || buf[0] == sender * 1000 + m);
  for (int k = 1; k < n; ++k) CHECK(buf[k] == mix3(sender, m, k));
}

/* Every rank but 0 sends kPerSender messages (tag = m) to rank 0 (rank 0 sends to itself too).
 * Rank 0 alternates: Mprobe(ANY, ANY), then an Irecv(ANY, ANY) posted before the Mrecv of the
 * probed message. The probed message must arrive at the Mrecv, the Irecv gets another one. */
static void any_source_never_stolen(int rank, int size) {
  check_context("MPI_Mprobe(MPI_ANY_SOURCE) with a wildcard receive posted before the MPI_Mrecv");
  int out[kInts];
  for (int m = 0; m < (rank == 0 ? 1 : kPerSender); ++m) { /* rank 0: one message to itself */
    fill(out, kInts, rank, m);
    CHECK_MPI(MPI_Send(out, kInts, MPI_INT, 0, m, MPI_COMM_WORLD));
  }
  if (rank != 0) return;
  const int total = (size - 1) * kPerSender + 1;
  int* seen = calloc((size_t)size * kPerSender, sizeof(int));
  int in[kInts], other[kInts];
  for (int got = 0; got < total;) {
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Status probed, st;
    CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &probed));
    CHECK(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC);
    int count = -1;
    MPI_Get_count(&probed, MPI_INT, &count);
    CHECK(count == kInts);
    MPI_Request thief = MPI_REQUEST_NULL;
    if (got + 1 < total)
      CHECK_MPI(
          MPI_Irecv(other, kInts, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &thief));
    CHECK_MPI(MPI_Mrecv(in, kInts, MPI_INT, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NULL);
    CHECK(st.MPI_SOURCE == probed.MPI_SOURCE && st.MPI_TAG == probed.MPI_TAG);
    check_payload(in, kInts, probed.MPI_SOURCE, probed.MPI_TAG);
    seen[probed.MPI_SOURCE * kPerSender + probed.MPI_TAG]++;
    ++got;
    if (thief != MPI_REQUEST_NULL) {
      CHECK_MPI(MPI_Wait(&thief, &st));
      CHECK(st.MPI_SOURCE != probed.MPI_SOURCE || st.MPI_TAG != probed.MPI_TAG);
      check_payload(other, kInts, st.MPI_SOURCE, st.MPI_TAG);
      seen[st.MPI_SOURCE * kPerSender + st.MPI_TAG]++;
      ++got;
    }
  }
  for (int s = 0; s < size; ++s)
    for (int m = 0; m < kPerSender; ++m) CHECK(seen[s * kPerSender + m] == (s == 0 ? m == 0 : 1));
  free(seen);
}

/* Improbe polls until the message is there; Imrecv receives it into a vector type; a second
 * Improbe for the same envelope finds nothing (the message was taken). */
static void improbe_and_imrecv(int rank, int left, int right) {
  check_context("MPI_Improbe polling, MPI_Imrecv into a non-contiguous type");
  enum { kCount = 200 };
  int out[kCount];
  fill(out, kCount, rank, 3);
  MPI_Request send;
  CHECK_MPI(MPI_Isend(out, kCount, MPI_INT, right, 3, MPI_COMM_WORLD, &send));
  MPI_Message msg = MPI_MESSAGE_NULL;
  MPI_Status st;
  int flag = 0;
  while (!flag) {
    CHECK_MPI(MPI_Improbe(left, 3, MPI_COMM_WORLD, &flag, &msg, &st));
    CHECK(flag || msg == MPI_MESSAGE_NULL);
  }
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 3);
  int again = 1;
  MPI_Message none = (MPI_Message)0x1234;
  CHECK_MPI(MPI_Improbe(left, 3, MPI_COMM_WORLD, &again, &none, MPI_STATUS_IGNORE));
  CHECK(again == 0 && none == MPI_MESSAGE_NULL);
  int iprobe_flag = 1;
  CHECK_MPI(MPI_Iprobe(left, 3, MPI_COMM_WORLD, &iprobe_flag, MPI_STATUS_IGNORE));
  CHECK(iprobe_flag == 0); /* a plain probe does not see a matched message either */
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(kCount, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  int strided[2 * kCount];
  for (int k = 0; k < 2 * kCount; ++k) strided[k] = -7;
  MPI_Request r;
  CHECK_MPI(MPI_Imrecv(strided, 1, every_other, &msg, &r));
  CHECK(msg == MPI_MESSAGE_NULL);
  CHECK_MPI(MPI_Type_free(&every_other)); /* the receive keeps the type */
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 3);
  int elements = -1;
  MPI_Get_count(&st, MPI_INT, &elements);
  CHECK(elements == kCount);
  for (int k = 0; k < 2 * kCount; ++k) {
    if (k % 2) CHECK(strided[k] == -7);
  }
  int packed[kCount];
  for (int k = 0; k < kCount; ++k) packed[k] = strided[2 * k];
  check_payload(packed, kCount, left, 3);
  CHECK_MPI(MPI_Wait(&send, MPI_STATUS_IGNORE));
}

/* Zero bytes and 8 MiB (rendezvous) through Mprobe/Mrecv and the _c forms. */
static void sizes(int rank, int left, int right) {
  check_context("matched probe of empty and 8 MiB messages");
  const int big = 2 << 20;
  int* out = malloc((size_t)big * sizeof(int));
  int* in = malloc((size_t)big * sizeof(int));
  fill(out, big, rank, 5);
  MPI_Request sends[2];
  CHECK_MPI(MPI_Isend(out, 0, MPI_INT, right, 4, MPI_COMM_WORLD, &sends[0]));
  CHECK_MPI(MPI_Isend(out, big, MPI_INT, right, 5, MPI_COMM_WORLD, &sends[1]));
  MPI_Message msg;
  MPI_Status st;
  CHECK_MPI(MPI_Mprobe(left, 4, MPI_COMM_WORLD, &msg, &st));
  MPI_Count count = -1;
  CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &count));
  CHECK(count == 0);
  CHECK_MPI(MPI_Mrecv(NULL, 0, MPI_INT, &msg, &st));
  CHECK(st.MPI_TAG == 4 && st.MPI_SOURCE == left);
  CHECK_MPI(MPI_Mprobe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st));
  CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &count));
  CHECK(count == big && st.MPI_TAG == 5);
  MPI_Request r;
  CHECK_MPI(MPI_Imrecv_c(in, (MPI_Count)big, MPI_INT, &msg, &r));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &count));
  CHECK(count == big);
  check_payload(in, big, left, 5);
  CHECK_MPI(MPI_Waitall(2, sends, MPI_STATUSES_IGNORE));
  free(out);
  free(in);
}

static void proc_null_and_errors(int left, int right) {
  check_context("MPI_PROC_NULL, truncation and bad message handles");
  MPI_Message msg = MPI_MESSAGE_NULL;
  MPI_Status st;
  CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 7, MPI_COMM_WORLD, &msg, &st));
  CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
  int buf[8] = {0};
  CHECK_MPI(MPI_Mrecv_c(buf, 8, MPI_INT, &msg, &st));
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL && count == 0);
  int flag = 0;
  CHECK_MPI(MPI_Improbe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
  CHECK(flag == 1 && msg == MPI_MESSAGE_NO_PROC);
  MPI_Request r;
  CHECK_MPI(MPI_Imrecv(buf, 8, MPI_INT, &msg, &r));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL);

  EXPECT_ERROR(MPI_Mrecv(buf, 8, MPI_INT, &msg, &st), MPI_ERR_REQUEST, "MPI_Mrecv",
               "MPI_MESSAGE_NULL");
  EXPECT_ERROR(MPI_Imrecv(buf, 8, MPI_INT, NULL, &r), MPI_ERR_ARG, "MPI_Imrecv", "message=NULL");
  EXPECT_ERROR(MPI_Mprobe(MPI_ANY_SOURCE, -4, MPI_COMM_WORLD, &msg, &st), MPI_ERR_TAG, "MPI_Mprobe",
               "tag=-4");
  EXPECT_ERROR(MPI_Improbe(-9, 0, MPI_COMM_WORLD, &flag, &msg, &st), MPI_ERR_RANK, "MPI_Improbe",
               "source=-9");
  EXPECT_ERROR(MPI_Improbe(0, 0, MPI_COMM_WORLD, NULL, &msg, &st), MPI_ERR_ARG, "MPI_Improbe",
               "flag=NULL");
  EXPECT_ERROR(MPI_Mprobe(0, 0, MPI_COMM_NULL, &msg, &st), MPI_ERR_COMM, "MPI_Mprobe",
               "MPI_COMM_NULL");

  /* a probed message longer than the buffer: MPI_ERR_TRUNCATE; a bad count leaves the handle */
  int out[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  CHECK_MPI(MPI_Send(out, 8, MPI_INT, right, 8, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Mprobe(left, 8, MPI_COMM_WORLD, &msg, &st));
  EXPECT_ERROR(MPI_Mrecv(buf, -1, MPI_INT, &msg, &st), MPI_ERR_COUNT, "MPI_Mrecv", "count=-1");
  CHECK(msg != MPI_MESSAGE_NULL);
  EXPECT_ERROR(MPI_Mrecv(buf, 4, MPI_INT, &msg, &st), MPI_ERR_TRUNCATE, "MPI_Mrecv", "truncated");
  CHECK(msg == MPI_MESSAGE_NULL); /* received (the buffer's contents are unspecified) */
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  any_source_never_stolen(rank, size);
  MPI_Barrier(MPI_COMM_WORLD);
  improbe_and_imrecv(rank, left, right);
  MPI_Barrier(MPI_COMM_WORLD);
  sizes(rank, left, right);
  MPI_Barrier(MPI_COMM_WORLD);
  proc_null_and_errors(left, right);
  MPI_Finalize();
  return 0;
}
