/* Buffered mode: MPI_Bsend/Ibsend/Bsend_init copy the message (packed for a derived type) into
 * the attached buffer, so the user buffer is free at once; MPI_Buffer_detach waits until every
 * buffered message is delivered; space is reused; MPI_ERR_BUFFER when the buffer is too small, when
 * none is attached or when attaching twice. Every rank sends to its right neighbour. */
#include <stdlib.h>
#include <unistd.h>

#include "expect_error.h"

enum { kMessages = 40 };

/* Message i's length in ints: a mix of tiny, eager and rendezvous sizes (up to 1 MiB). */
static int length_of(int i) {
  static const int lengths[] = {0, 1, 3, 100, 2000, 30000, 262144};
  return lengths[i % 7];
}

static int value(int sender, int message, int k) { return mix3(sender, message, k); }

/* Many Bsends, then Buffer_detach: the buffer comes back only once all were delivered, so it can
 * be overwritten at once. The receives are posted first, as the detach waits for them. */
static void many_then_detach(int rank, int left, int right) {
  check_context("%d buffered messages of mixed sizes, then MPI_Buffer_detach", kMessages);
  int total = 0, ints = 0;
  for (int i = 0; i < kMessages; ++i) {
    total += length_of(i) * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    ints += length_of(i);
  }
  int* in = malloc((size_t)ints * sizeof(int));
  MPI_Request recvs[kMessages];
  for (int i = 0, at = 0; i < kMessages; at += length_of(i), ++i)
    CHECK_MPI(MPI_Irecv(in + at, length_of(i), MPI_INT, left, i, MPI_COMM_WORLD, &recvs[i]));
  char* attached = malloc((size_t)total);
  CHECK(attached != NULL && in != NULL);
  CHECK_MPI(MPI_Buffer_attach(attached, total));
  int* data = malloc(262144 * sizeof(int));
  for (int i = 0; i < kMessages; ++i) {
    for (int k = 0; k < length_of(i); ++k) data[k] = value(rank, i, k);
    CHECK_MPI(MPI_Bsend(data, length_of(i), MPI_INT, right, i, MPI_COMM_WORLD));
    for (int k = 0; k < length_of(i); ++k) data[k] = -1; /* the copy went out, not this */
  }
  void* back = NULL;
  int size = 0;
  CHECK_MPI(MPI_Buffer_detach(&back, &size));
  CHECK(back == attached && size == total);
  memset(attached, 0xab, (size_t)total); /* a message still read from here would show it */
  free(attached);
  MPI_Status st[kMessages];
  CHECK_MPI(MPI_Waitall(kMessages, recvs, st));
  for (int i = 0, at = 0; i < kMessages; at += length_of(i), ++i) {
    int count = -1;
    MPI_Get_count(&st[i], MPI_INT, &count);
    CHECK(count == length_of(i) && st[i].MPI_SOURCE == left && st[i].MPI_TAG == i);
    for (int k = 0; k < length_of(i); ++k) CHECK(in[at + k] == value(left, i, k));
  }
  free(data);
  free(in);
}

/* The receiver posts late: detach must still wait for the rendezvous messages it carries. */
static void detach_waits_for_late_receiver(int rank, int size) {
  check_context("MPI_Buffer_detach while the receiver has not posted its receives yet");
  if (size < 2 || rank > 1) return;
  const int n = 1 << 20; /* 4 MiB each: sent by rendezvous, read from the attached buffer */
  int* data = malloc((size_t)n * sizeof(int));
  if (rank == 0) {
    const int bytes = 2 * (n * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char* attached = malloc((size_t)bytes);
    CHECK_MPI(MPI_Buffer_attach(attached, bytes));
    for (int m = 0; m < 2; ++m) {
      for (int k = 0; k < n; ++k) data[k] = value(0, m, k);
      CHECK_MPI(MPI_Bsend(data, n, MPI_INT, 1, 100 + m, MPI_COMM_WORLD));
    }
    void* back = NULL;
    int back_size = 0;
    CHECK_MPI(MPI_Buffer_detach(&back, &back_size));
    memset(attached, 0, (size_t)bytes);
    free(attached);
  } else {
    usleep(200 * 1000);
    for (int m = 0; m < 2; ++m) {
      CHECK_MPI(MPI_Recv(data, n, MPI_INT, 0, 100 + m, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      for (int k = 0; k < n; ++k) CHECK(data[k] == value(0, m, k));
    }
  }
  free(data);
}

/* A buffer with room for two messages carries many, in rounds the receiver acknowledges. */
static void space_is_reused(int rank, int left, int right) {
  check_context("a small attached buffer reused over many rounds");
  enum { kInts = 256, kRounds = 50 };
  const int bytes = 2 * (kInts * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
  char* attached = malloc((size_t)bytes);
  CHECK_MPI(MPI_Buffer_attach(attached, bytes));
  int out[kInts], in[kInts];
  for (int round = 0; round < kRounds; ++round) {
    for (int m = 0; m < 2; ++m) {
      for (int k = 0; k < kInts; ++k) out[k] = value(rank, round * 2 + m, k);
      CHECK_MPI(MPI_Bsend(out, kInts, MPI_INT, right, m, MPI_COMM_WORLD));
    }
    for (int m = 0; m < 2; ++m) {
      CHECK_MPI(MPI_Recv(in, kInts, MPI_INT, left, m, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      for (int k = 0; k < kInts; ++k) CHECK(in[k] == value(left, round * 2 + m, k));
    }
    /* Both of this round's messages have arrived: their space is free for the next round. */
    CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_INT, left, 9, NULL, 0, MPI_INT, right, 9, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
  }
  void* back = NULL;
  int back_size = 0;
  CHECK_MPI(MPI_Buffer_detach(&back, &back_size));
  free(attached);
}

/* Ibsend and Bsend_init with a non-contiguous type: the message is packed into the buffer. */
static void ibsend_and_persistent_with_vector(int rank, int left, int right) {
  check_context("MPI_Ibsend and MPI_Bsend_init of every other int");
  enum { kCount = 500, kRounds = 10 };
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(kCount, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  int pack_size = 0;
  CHECK_MPI(MPI_Pack_size(1, every_other, MPI_COMM_WORLD, &pack_size));
  const int bytes = 2 * (pack_size + MPI_BSEND_OVERHEAD);
  char* attached = malloc((size_t)bytes);
  CHECK_MPI(MPI_Buffer_attach(attached, bytes));
  int strided[2 * kCount], in[kCount];
  MPI_Request persistent;
  CHECK_MPI(MPI_Bsend_init(strided, 1, every_other, right, 2, MPI_COMM_WORLD, &persistent));
  for (int round = 0; round < kRounds; ++round) {
    for (int k = 0; k < 2 * kCount; ++k) strided[k] = k % 2 ? -1 : value(rank, round, k / 2);
    MPI_Request r;
    CHECK_MPI(MPI_Ibsend(strided, 1, every_other, right, 1, MPI_COMM_WORLD, &r));
    int done = 0;
    CHECK_MPI(MPI_Test(&r, &done, MPI_STATUS_IGNORE)); /* complete once copied */
    CHECK(done && r == MPI_REQUEST_NULL);
    CHECK_MPI(MPI_Start(&persistent));
    CHECK_MPI(MPI_Wait(&persistent, MPI_STATUS_IGNORE));
    CHECK(persistent != MPI_REQUEST_NULL);
    for (int k = 0; k < 2 * kCount; ++k) strided[k] = -2;
    for (int tag = 1; tag <= 2; ++tag) {
      CHECK_MPI(MPI_Recv(in, kCount, MPI_INT, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      for (int k = 0; k < kCount; ++k) CHECK(in[k] == value(left, round, k));
    }
    CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_INT, left, 9, NULL, 0, MPI_INT, right, 9, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
  }
  CHECK_MPI(MPI_Request_free(&persistent));
  CHECK_MPI(MPI_Type_free(&every_other));
  void* back = NULL;
  int back_size = 0;
  CHECK_MPI(MPI_Buffer_detach(&back, &back_size));
  free(attached);
}

static void errors(int rank, int right) {
  check_context("MPI_ERR_BUFFER paths");
  int data[64] = {0};
  void* back = (void*)1;
  int back_size = -1;
  CHECK_MPI(MPI_Buffer_detach(&back, &back_size)); /* nothing attached */
  CHECK(back == NULL && back_size == 0);
  EXPECT_ERROR(MPI_Bsend(data, 4, MPI_INT, right, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Bsend",
               "no buffer is attached");
  static char small[100];
  CHECK_MPI(MPI_Buffer_attach(small, sizeof small));
  EXPECT_ERROR(MPI_Buffer_attach(small, sizeof small), MPI_ERR_BUFFER, "MPI_Buffer_attach",
               "attached already");
  /* 64 ints = 256 bytes: more than the 100 bytes attached; the message names both sizes */
  EXPECT_ERROR(MPI_Bsend(data, 64, MPI_INT, right, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Bsend",
               "needs 256 bytes");
  EXPECT_ERROR(MPI_Ibsend(data, 64, MPI_INT, right, 0, MPI_COMM_WORLD, &(MPI_Request){0}),
               MPI_ERR_BUFFER, "MPI_Ibsend", "100 bytes are available");
  MPI_Request persistent;
  CHECK_MPI(MPI_Bsend_init(data, 64, MPI_INT, right, 0, MPI_COMM_WORLD, &persistent));
  EXPECT_ERROR(MPI_Start(&persistent), MPI_ERR_BUFFER, "MPI_Start", "needs 256 bytes");
  MPI_Status st;
  CHECK_MPI(MPI_Wait(&persistent, &st)); /* it did not start: inactive */
  CHECK(persistent != MPI_REQUEST_NULL && st.MPI_TAG == MPI_ANY_TAG);
  CHECK_MPI(MPI_Request_free(&persistent));
  EXPECT_ERROR(MPI_Buffer_attach(small, -1), MPI_ERR_ARG, "MPI_Buffer_attach", "size=-1");
  CHECK_MPI(MPI_Buffer_detach(&back, &back_size));
  CHECK(back == small && back_size == (int)sizeof small);
  EXPECT_ERROR(MPI_Buffer_attach(NULL, 10), MPI_ERR_BUFFER, "MPI_Buffer_attach", "buffer=NULL");
  EXPECT_ERROR(MPI_Buffer_detach(NULL, &back_size), MPI_ERR_ARG, "MPI_Buffer_detach",
               "buffer_addr=NULL");
  /* MPI_PROC_NULL needs no buffer at all */
  CHECK_MPI(MPI_Bsend(data, 64, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
  (void)rank;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  errors(rank, right);
  many_then_detach(rank, left, right);
  detach_waits_for_late_receiver(rank, size);
  space_is_reused(rank, left, right);
  ibsend_and_persistent_with_vector(rank, left, right);
  MPI_Finalize();
  return 0;
}
