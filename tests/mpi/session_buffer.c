/* MPI 4.1 §3.6: the buffer of a session (MPI_Session_attach_buffer, _detach_buffer,
 * _flush_buffer, _iflush_buffer and the _c forms) serves MPI_Bsend on the communicators derived
 * from that session (made from its process set, and their duplicates) that have no buffer of
 * their own; other communicators never use it; while it is attached the process's buffer is not
 * used for them, once it is detached it is. Every rank sends to its right neighbour; a message is
 * large enough (rendezvous) that its copy stays in the buffer until it is received. */
#include <stdlib.h>

#include "expect_error.h"

enum { kInts = 50000, kOne = kInts * (int)sizeof(int) + MPI_BSEND_OVERHEAD };

static int rank, left, right;

static void bsend(int* data, int id, MPI_Comm comm) {
  for (int k = 0; k < kInts; ++k) data[k] = mix3(rank, id, k);
  CHECK_MPI(MPI_Bsend(data, kInts, MPI_INT, right, id, comm));
  for (int k = 0; k < kInts; ++k) data[k] = -1; /* the copy is what goes out */
}

/* Until every rank has seen its buffer full, no rank receives (which would empty its neighbour's). */
static void all_checked(void) { CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); }

/* Receives message `id` from the left neighbour on `comm` and checks it. */
static void receive(int* in, int id, MPI_Comm comm) {
  CHECK_MPI(MPI_Recv(in, kInts, MPI_INT, left, id, comm, MPI_STATUS_IGNORE));
  for (int k = 0; k < kInts; ++k) CHECK(in[k] == mix3(left, id, k));
}

/* The communicator of mpi://WORLD in session `s`. */
static MPI_Comm session_comm(MPI_Session s, const char* tag) {
  MPI_Group group;
  CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &group));
  MPI_Comm comm;
  CHECK_MPI(MPI_Comm_create_from_group(group, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm));
  CHECK_MPI(MPI_Group_free(&group));
  return comm;
}

static void session_buffer(MPI_Session s, int* data, int* in) {
  MPI_Comm comm = session_comm(s, "session_buffer.test");
  char* attached = malloc(kOne);

  check_context("no buffer anywhere: MPI_Bsend on the session's communicator fails");
  EXPECT_ERROR(MPI_Bsend(data, kInts, MPI_INT, right, 0, comm), MPI_ERR_BUFFER, "MPI_Bsend",
               "no buffer is attached");

  check_context("the session's buffer serves its communicators, and no other");
  CHECK_MPI(MPI_Session_attach_buffer(s, attached, kOne));
  EXPECT_ERROR(MPI_Session_attach_buffer(s, attached, kOne), MPI_ERR_BUFFER,
               "MPI_Session_attach_buffer", "attached already");
  EXPECT_ERROR(MPI_Bsend(data, kInts, MPI_INT, right, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER,
               "MPI_Bsend", "no buffer is attached");
  bsend(data, 0, comm);
  /* Its one message's room is taken until the message is received: a duplicate of the
   * communicator, derived from the session too, finds it full, even with a process buffer. */
  char* process_buffer = malloc(kOne);
  CHECK_MPI(MPI_Buffer_attach(process_buffer, kOne));
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(comm, &dup));
  EXPECT_ERROR(MPI_Bsend(data, kInts, MPI_INT, right, 1, dup), MPI_ERR_BUFFER, "MPI_Bsend",
               "cannot hold the message");
  all_checked();
  receive(in, 0, comm);
  MPI_Request flush = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Session_iflush_buffer(s, &flush));
  CHECK_MPI(MPI_Wait(&flush, MPI_STATUS_IGNORE));
  bsend(data, 1, dup); /* the room is free again */
  receive(in, 1, dup);
  CHECK_MPI(MPI_Session_flush_buffer(s));

  check_context("a communicator's own buffer comes before its session's");
  char* own = malloc(kOne);
  CHECK_MPI(MPI_Comm_attach_buffer(dup, own, kOne));
  bsend(data, 2, comm); /* fills the session's buffer */
  bsend(data, 3, dup);  /* goes to dup's own */
  EXPECT_ERROR(MPI_Bsend(data, kInts, MPI_INT, right, 4, comm), MPI_ERR_BUFFER, "MPI_Bsend",
               "cannot hold the message");
  all_checked();
  receive(in, 2, comm);
  receive(in, 3, dup);
  void* back = NULL;
  int back_size = 0;
  CHECK_MPI(MPI_Comm_detach_buffer(dup, &back, &back_size));
  CHECK(back == own && back_size == kOne);

  check_context("detached, the session's buffer comes back and the process's serves instead");
  MPI_Count back_c = 0;
  CHECK_MPI(MPI_Session_detach_buffer_c(s, &back, &back_c));
  CHECK(back == attached && back_c == kOne);
  bsend(data, 5, comm); /* into the process's buffer now */
  EXPECT_ERROR(MPI_Bsend(data, kInts, MPI_INT, right, 6, dup), MPI_ERR_BUFFER, "MPI_Bsend",
               "cannot hold the message");
  all_checked();
  receive(in, 5, comm);
  CHECK_MPI(MPI_Buffer_detach(&back, &back_size));
  CHECK(back == process_buffer);
  CHECK_MPI(MPI_Session_detach_buffer(s, &back, &back_size)); /* none attached: NULL, 0 */
  CHECK(back == NULL && back_size == 0);

  check_context("MPI_BUFFER_AUTOMATIC through the _c form; MPI_Session_finalize takes it");
  CHECK_MPI(MPI_Session_attach_buffer_c(s, MPI_BUFFER_AUTOMATIC, 0));
  bsend(data, 7, dup);
  bsend(data, 8, comm);
  receive(in, 7, dup);
  receive(in, 8, comm);
  CHECK_MPI(MPI_Comm_free(&dup));
  CHECK_MPI(MPI_Comm_free(&comm));
  free(attached);
  free(process_buffer);
  free(own);
}

static void errors(MPI_Session s) {
  check_context("error paths");
  char small[64];
  void* back = NULL;
  int size = 0;
  EXPECT_ERROR(MPI_Session_attach_buffer(MPI_SESSION_NULL, small, 64), MPI_ERR_SESSION,
               "MPI_Session_attach_buffer", "session=");
  EXPECT_ERROR(MPI_Session_attach_buffer(s, small, -1), MPI_ERR_ARG, "MPI_Session_attach_buffer",
               "size=-1");
  EXPECT_ERROR(MPI_Session_attach_buffer(s, NULL, 64), MPI_ERR_BUFFER, "MPI_Session_attach_buffer",
               "buffer=NULL");
  EXPECT_ERROR(MPI_Session_detach_buffer(s, NULL, &size), MPI_ERR_ARG, "MPI_Session_detach_buffer",
               "buffer_addr=NULL");
  EXPECT_ERROR(MPI_Session_detach_buffer_c(s, &back, NULL), MPI_ERR_ARG,
               "MPI_Session_detach_buffer_c", "size=NULL");
  EXPECT_ERROR(MPI_Session_iflush_buffer(s, NULL), MPI_ERR_ARG, "MPI_Session_iflush_buffer",
               "request=NULL");
  EXPECT_ERROR(MPI_Session_flush_buffer(4242), MPI_ERR_SESSION, "MPI_Session_flush_buffer",
               "session=4242");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int size;
  world_ring(&rank, &size, &left, &right);
  MPI_Session s;
  CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
  int *data = malloc(kInts * sizeof(int)), *in = malloc(kInts * sizeof(int));
  session_buffer(s, data, in);
  errors(s);
  CHECK_MPI(MPI_Session_finalize(&s));
  free(data);
  free(in);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
