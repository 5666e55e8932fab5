/* The short paths of point-to-point calls (pt2pt/short_paths.hpp), checked by the data, the
 * order and the MPI_T counters p2p_short_sends and p2p_short_recvs. Small standard and ready
 * sends to a rank of this node take it, and a nonblocking one returns a request that is already
 * complete; synchronous, buffered and derived-type sends do not; a send behind a queued one (its
 * ring full while the receiver sleeps) or behind a large message still in flight keeps MPI's
 * order; bad arguments get the general path's errors; MPI_PROC_NULL is not a message. Blocking
 * receives of plain messages take theirs over any transport: truncation, wildcards and the
 * status as on the general path. Run with argument "off" under WEFT_SHM=0: then no send may
 * take its short path. Ranks work in pairs (2k, 2k+1). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static MPI_T_pvar_session session;
static MPI_T_pvar_handle short_sends, short_recvs;

static unsigned long long read_counter(MPI_T_pvar_handle h) {
  unsigned long long v = 0;
  CHECK(MPI_T_pvar_read(session, h, &v) == MPI_SUCCESS);
  return v;
}
static unsigned long long taken(void) { return read_counter(short_sends); }

static MPI_T_pvar_handle counter(const char* name) {
  int index = -1, count = 0;
  MPI_T_pvar_handle h;
  CHECK(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_handle_alloc(session, index, NULL, &h, &count) == MPI_SUCCESS);
  return h;
}

enum { kSmall = 240, kFlood = 3000, kLarge = 1 << 20 };

/* Sends in every mode, in one order; the receiver takes them in that order (one tag). */
static void mixed_modes(int me, int peer, int sender, int off) {
  int value[4] = {0, 0, 0, 0};
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  char bsend_space[1024];
  if (me == sender) {
    MPI_Buffer_attach(bsend_space, sizeof bsend_space);
    const unsigned long long before = taken();
    for (int i = 0; i < kSmall; ++i) {
      value[0] = i;
      MPI_Request request;
      switch (i % 6) {
        case 0: CHECK_MPI(MPI_Send(value, 1, MPI_INT, peer, 7, MPI_COMM_WORLD)); break;
        case 1: CHECK_MPI(MPI_Rsend(value, 1, MPI_INT, peer, 7, MPI_COMM_WORLD)); break;
        case 2: CHECK_MPI(MPI_Ssend(value, 1, MPI_INT, peer, 7, MPI_COMM_WORLD)); break;
        case 3: CHECK_MPI(MPI_Bsend(value, 1, MPI_INT, peer, 7, MPI_COMM_WORLD)); break;
        case 4: CHECK_MPI(MPI_Send(value, 1, pair, peer, 7, MPI_COMM_WORLD)); break;
        case 5:
          CHECK_MPI(MPI_Isend(value, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &request));
          CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
          break;
      }
    }
    const unsigned long long short_ones = taken() - before;
    snprintf(check_context_, sizeof check_context_, "%llu of %d sends took the short path",
             short_ones, kSmall);
    /* Standard and ready sends of MPI_INT only, blocking or not; with nothing queued, every one
     * of them. */
    CHECK(off ? short_ones == 0 : short_ones == 3 * kSmall / 6);
    void* detached;
    int size;
    MPI_Buffer_detach(&detached, &size);
  } else {
    const unsigned long long before = read_counter(short_recvs);
    for (int i = 0; i < kSmall; ++i) {
      if (i == kSmall / 2) usleep(20 * 1000); /* the sender runs ahead, up to an Ssend */
      value[0] = value[1] = -1;
      const int count = i % 6 == 4 ? 2 : 1;
      MPI_Status status;
      CHECK_MPI(MPI_Recv(value, count, MPI_INT, peer, 7, MPI_COMM_WORLD, &status));
      snprintf(check_context_, sizeof check_context_, "message %d", i);
      CHECK(value[0] == i && status.MPI_SOURCE == peer && status.MPI_TAG == 7);
    }
    snprintf(check_context_, sizeof check_context_, "the receives' short path");
    CHECK(read_counter(short_recvs) - before == kSmall); /* plain ones, whatever the sender */
  }
  MPI_Type_free(&pair);
}

/* A large message in flight, then a flood the sleeping receiver's ring cannot hold: some sends
 * queue, the ones after them must not overtake them, and each arrives once, in order. */
static void behind_queued(int me, int peer, int sender, int off) {
  int* large = malloc(kLarge);
  for (int i = 0; i < kLarge / (int)sizeof(int); ++i) large[i] = i ^ 0x5a5a;
  int value[256]; /* 1 KiB each: the ring fills */
  if (me == sender) {
    MPI_Request request;
    CHECK_MPI(MPI_Isend(large, kLarge / (int)sizeof(int), MPI_INT, peer, 9, MPI_COMM_WORLD,
                        &request));
    const unsigned long long before = taken();
    for (int i = 0; i < kFlood; ++i) {
      value[0] = i;
      value[255] = -i;
      CHECK_MPI(MPI_Send(value, 256, MPI_INT, peer, 9, MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
    const unsigned long long short_ones = taken() - before;
    snprintf(check_context_, sizeof check_context_, "%llu of %d flooding sends were short",
             short_ones, kFlood);
    /* Some fit at once; some found the ring full and waited on the general path. */
    CHECK(off ? short_ones == 0 : short_ones > 0 && short_ones < kFlood);
  } else {
    usleep(100 * 1000); /* let the ring fill */
    memset(large, 0, kLarge);
    CHECK_MPI(MPI_Recv(large, kLarge / (int)sizeof(int), MPI_INT, peer, 9, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    for (int i = 0; i < kLarge / (int)sizeof(int); ++i) CHECK(large[i] == (i ^ 0x5a5a));
    for (int i = 0; i < kFlood; ++i) {
      CHECK_MPI(MPI_Recv(value, 256, MPI_INT, peer, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      snprintf(check_context_, sizeof check_context_, "flood message %d", i);
      CHECK(value[0] == i && value[255] == -i);
    }
  }
  free(large);
}

/* Receives on the short path report like the general path: a truncated message's error and
 * status, wildcards' status and count; a derived type's receive does not take it. */
static void receive_outcomes(int me, int peer, int sender) {
  int four[4] = {1, 2, 3, 4}, six[6] = {5, 6, 7, 8, 9, 10}, got[6] = {0, 0, 0, 0, 0, 0};
  if (me == sender) {
    CHECK_MPI(MPI_Send(four, 4, MPI_INT, peer, 3, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(four, 1, MPI_INT, peer, 4, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(six, 3, MPI_INT, peer, 5, MPI_COMM_WORLD));
    return;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const unsigned long long before = read_counter(short_recvs);
  MPI_Status status;
  int cls = 0, n = -1;
  snprintf(check_context_, sizeof check_context_, "a truncated receive");
  MPI_Error_class(MPI_Recv(got, 2, MPI_INT, peer, 3, MPI_COMM_WORLD, &status), &cls);
  CHECK(cls == MPI_ERR_TRUNCATE && status.MPI_SOURCE == peer && status.MPI_TAG == 3);
  snprintf(check_context_, sizeof check_context_, "a receive from any source with any tag");
  CHECK_MPI(MPI_Recv(got, 6, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status));
  MPI_Get_count(&status, MPI_INT, &n);
  CHECK(got[0] == 1 && n == 1 && status.MPI_SOURCE == peer && status.MPI_TAG == 4);
  CHECK(read_counter(short_recvs) - before == 2);
  snprintf(check_context_, sizeof check_context_, "a receive of a derived type");
  MPI_Datatype every_other;
  MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  memset(got, 0, sizeof got);
  CHECK_MPI(MPI_Recv(got, 1, every_other, peer, 5, MPI_COMM_WORLD, &status));
  CHECK(got[0] == 5 && got[1] == 0 && got[2] == 6 && got[4] == 7 && got[5] == 0);
  CHECK(read_counter(short_recvs) - before == 2);
  MPI_Type_free(&every_other);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Arguments the short path must leave to the general path's checks. */
static void bad_arguments(int size) {
  int v = 1, cls = 0;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN); /* MPI_COMM_NULL's errors */
  const unsigned long long before = taken();
  MPI_Error_class(MPI_Send(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD), &cls);
  CHECK(cls == MPI_ERR_RANK);
  MPI_Error_class(MPI_Send(&v, 1, MPI_INT, 0, -3, MPI_COMM_WORLD), &cls);
  CHECK(cls == MPI_ERR_TAG);
  MPI_Error_class(MPI_Send(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), &cls);
  CHECK(cls == MPI_ERR_COUNT);
  MPI_Error_class(MPI_Send(NULL, 1, MPI_INT, 0, 0, MPI_COMM_WORLD), &cls);
  CHECK(cls == MPI_ERR_BUFFER);
  MPI_Error_class(MPI_Send(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), &cls);
  CHECK(cls == MPI_ERR_TYPE);
  MPI_Error_class(MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL), &cls);
  CHECK(cls == MPI_ERR_COMM);
  CHECK_MPI(MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
  CHECK(taken() == before);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int off = argc > 1 && strcmp(argv[1], "off") == 0;
  int me, size, provided;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_session_create(&session) == MPI_SUCCESS);
  short_sends = counter("p2p_short_sends");
  short_recvs = counter("p2p_short_recvs");

  bad_arguments(size);
  const int peer = me ^ 1;
  if (peer < size) {
    mixed_modes(me, peer, me & ~1, off);
    mixed_modes(me, peer, me | 1, off);
    behind_queued(me, peer, me & ~1, off);
    receive_outcomes(me, peer, me | 1);
  }

  MPI_T_pvar_handle_free(session, &short_sends);
  MPI_T_pvar_handle_free(session, &short_recvs);
  MPI_T_pvar_session_free(&session);
  MPI_T_finalize();
  MPI_Finalize();
  return 0;
}
