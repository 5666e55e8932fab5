/* MPI 4.1 §3.6 buffer calls: MPI_Buffer_flush/iflush free the attached buffer's space once the
 * messages in it are sent; buffers attached to one communicator (MPI_Comm_attach_buffer,
 * _detach_buffer, _flush_buffer, _iflush_buffer) serve that communicator's buffered sends;
 * MPI_BUFFER_AUTOMATIC needs no size; errors name the function and argument. Every rank sends to
 * its right neighbour. */
#include <stdlib.h>

#include "expect_error.h"

enum { kInts = 50000 }; /* 200 KB: sent by rendezvous, so the copy stays until received */

static int value(int sender, int message, int k) { return mix3(sender, message, k); }

/* Sends message `id` of kInts by MPI_Bsend on `comm`, then overwrites the user buffer. */
static void bsend(int* data, int rank, int id, int right, MPI_Comm comm) {
  for (int k = 0; k < kInts; ++k) data[k] = value(rank, id, k);
  CHECK_MPI(MPI_Bsend(data, kInts, MPI_INT, right, id, comm));
  for (int k = 0; k < kInts; ++k) data[k] = -1;
}

static void check_received(const int* in, int left, int id) {
  for (int k = 0; k < kInts; ++k) CHECK(in[k] == value(left, id, k));
}

/* A buffer with room for one message: after the flush its space is free for the next. */
static void flush_frees_space(int rank, int left, int right, int nonblocking) {
  check_context("MPI_Buffer_%sflush frees the space of the messages sent", nonblocking ? "i" : "");
  const int size = kInts * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
  char* attached = malloc((size_t)size);
  int *data = malloc(kInts * sizeof(int)), *in = malloc(2 * kInts * sizeof(int));
  MPI_Request recvs[2];
  for (int i = 0; i < 2; ++i)
    CHECK_MPI(MPI_Irecv(in + i * kInts, kInts, MPI_INT, left, i, MPI_COMM_WORLD, &recvs[i]));
  CHECK_MPI(MPI_Buffer_attach(attached, size));
  bsend(data, rank, 0, right, MPI_COMM_WORLD);
  if (nonblocking) {
    MPI_Request flush = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Buffer_iflush(&flush));
    CHECK(flush != MPI_REQUEST_NULL);
    CHECK_MPI(MPI_Wait(&flush, MPI_STATUS_IGNORE));
  } else {
    CHECK_MPI(MPI_Buffer_flush());
  }
  bsend(data, rank, 1, right, MPI_COMM_WORLD); /* fits only because the first one is gone */
  CHECK_MPI(MPI_Buffer_flush());
  void* back = NULL;
  int back_size = 0;
  CHECK_MPI(MPI_Buffer_detach(&back, &back_size));
  CHECK(back == attached && back_size == size);
  CHECK_MPI(MPI_Waitall(2, recvs, MPI_STATUSES_IGNORE));
  for (int i = 0; i < 2; ++i) check_received(in + i * kInts, left, i);
  free(attached);
  free(data);
  free(in);
}

/* A communicator's buffer serves its sends only; the process has none attached meanwhile. */
static void communicator_buffer(int rank, int left, int right) {
  check_context("MPI_Comm_attach_buffer on a duplicate of MPI_COMM_WORLD");
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  errors_return();
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  const int size = 2 * (kInts * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
  char* attached = malloc((size_t)size);
  int *data = malloc(kInts * sizeof(int)), *in = malloc(3 * kInts * sizeof(int));
  MPI_Request recvs[3];
  for (int i = 0; i < 3; ++i)
    CHECK_MPI(MPI_Irecv(in + i * kInts, kInts, MPI_INT, left, i, dup, &recvs[i]));
  CHECK_MPI(MPI_Comm_attach_buffer(dup, attached, size));
  EXPECT_ERROR(MPI_Comm_attach_buffer(dup, attached, size), MPI_ERR_BUFFER,
               "MPI_Comm_attach_buffer", "attached already");
  EXPECT_ERROR(MPI_Bsend(data, 1, MPI_INT, right, 9, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Bsend",
               "no buffer is attached");
  bsend(data, rank, 0, right, dup);
  bsend(data, rank, 1, right, dup);
  CHECK_MPI(MPI_Comm_flush_buffer(dup));
  bsend(data, rank, 2, right, dup);
  MPI_Request flush = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Comm_iflush_buffer(dup, &flush));
  EXPECT_ERROR(MPI_Cancel(&flush), MPI_ERR_REQUEST, "MPI_Cancel",
               "buffer flush) cannot be cancelled");
  CHECK_MPI(MPI_Waitall(3, recvs, MPI_STATUSES_IGNORE));
  CHECK_MPI(MPI_Wait(&flush, MPI_STATUS_IGNORE));
  for (int i = 0; i < 3; ++i) check_received(in + i * kInts, left, i);
  void* back = NULL;
  MPI_Count back_size = 0;
  CHECK_MPI(MPI_Comm_detach_buffer_c(dup, &back, &back_size));
  CHECK(back == attached && back_size == size);
  EXPECT_ERROR(MPI_Bsend(data, 1, MPI_INT, right, 9, dup), MPI_ERR_BUFFER, "MPI_Bsend",
               "no buffer is attached");

  check_context("MPI_Comm_free takes the communicator's buffer with it");
  CHECK_MPI(MPI_Comm_attach_buffer(dup, attached, size));
  CHECK_MPI(MPI_Comm_free(&dup));
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  CHECK_MPI(MPI_Comm_detach_buffer(dup, &back, &(int){0}));
  CHECK(back == NULL);
  CHECK_MPI(MPI_Comm_free(&dup));
  free(attached);
  free(data);
  free(in);
}

/* MPI_BUFFER_AUTOMATIC: any number of messages of any size, no space to account for. */
static void automatic(int rank, int left, int right) {
  check_context("MPI_BUFFER_AUTOMATIC");
  enum { kMessages = 6 };
  int *data = malloc(kInts * sizeof(int)), *in = malloc(kMessages * kInts * sizeof(int));
  MPI_Request recvs[kMessages];
  for (int i = 0; i < kMessages; ++i)
    CHECK_MPI(MPI_Irecv(in + i * kInts, kInts, MPI_INT, left, i, MPI_COMM_WORLD, &recvs[i]));
  CHECK_MPI(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
  EXPECT_ERROR(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0), MPI_ERR_BUFFER, "MPI_Buffer_attach",
               "MPI_BUFFER_AUTOMATIC is attached already");
  for (int i = 0; i < kMessages; ++i) bsend(data, rank, i, right, MPI_COMM_WORLD);
  CHECK_MPI(MPI_Waitall(kMessages, recvs, MPI_STATUSES_IGNORE));
  for (int i = 0; i < kMessages; ++i) check_received(in + i * kInts, left, i);
  void* back = NULL;
  int back_size = -1;
  CHECK_MPI(MPI_Buffer_detach(&back, &back_size));
  CHECK(back == MPI_BUFFER_AUTOMATIC && back_size == 0);
  free(data);
  free(in);
}

static void errors(void) {
  check_context("error paths");
  int size = 0;
  void* back = NULL;
  char small[64];
  EXPECT_ERROR(MPI_Comm_attach_buffer(MPI_COMM_NULL, small, 64), MPI_ERR_COMM,
               "MPI_Comm_attach_buffer", "MPI_COMM_NULL");
  EXPECT_ERROR(MPI_Comm_attach_buffer(MPI_COMM_WORLD, small, -1), MPI_ERR_ARG,
               "MPI_Comm_attach_buffer", "size=-1");
  EXPECT_ERROR(MPI_Comm_detach_buffer(MPI_COMM_WORLD, NULL, &size), MPI_ERR_ARG,
               "MPI_Comm_detach_buffer", "buffer_addr=NULL");
  EXPECT_ERROR(MPI_Buffer_iflush(NULL), MPI_ERR_ARG, "MPI_Buffer_iflush", "request=NULL");
  EXPECT_ERROR(MPI_Comm_iflush_buffer(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_iflush_buffer",
               "request=NULL");
  EXPECT_ERROR(MPI_Comm_flush_buffer(MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Comm_flush_buffer",
               "MPI_COMM_NULL");
  /* nothing attached: flushing has nothing to wait for, detaching gives NULL */
  CHECK_MPI(MPI_Buffer_flush());
  CHECK_MPI(MPI_Comm_flush_buffer(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Comm_detach_buffer(MPI_COMM_WORLD, &back, &size));
  CHECK(back == NULL && size == 0);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  flush_frees_space(rank, left, right, 0);
  flush_frees_space(rank, left, right, 1);
  communicator_buffer(rank, left, right);
  automatic(rank, left, right);
  errors();
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
