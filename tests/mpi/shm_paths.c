/* The shared-memory transport's protocols between ranks of one node, each checked by its data
 * and by the MPI_T counters of the path it took: eager records up to WEFT_SHM_EAGER_LIMIT and
 * single copy beyond, a flood of unexpected messages larger than the rings (senders queue and
 * are woken when there is room), probes and matched probes of both kinds, truncation, a
 * synchronous send that must not complete before its receive is posted, a cancelled
 * receive and a withdrawn (cancelled) send. Run with argument "off" under WEFT_SHM=0: then nothing may go through it. Ranks
 * work in pairs (2k, 2k+1); an odd last rank only checks the counters. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static MPI_T_pvar_session session;

static MPI_T_pvar_handle counter(const char* name) {
  int index = -1, count = 0;
  CHECK(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index) == MPI_SUCCESS);
  MPI_T_pvar_handle h;
  CHECK(MPI_T_pvar_handle_alloc(session, index, NULL, &h, &count) == MPI_SUCCESS);
  return h;
}

static unsigned long long value(MPI_T_pvar_handle h) {
  unsigned long long v = 0;
  CHECK(MPI_T_pvar_read(session, h, &v) == MPI_SUCCESS);
  return v;
}

static size_t eager_limit(void) {
  int index = -1, count = 0;
  CHECK(MPI_T_cvar_get_index("WEFT_SHM_EAGER_LIMIT", &index) == MPI_SUCCESS);
  MPI_T_cvar_handle h;
  CHECK(MPI_T_cvar_handle_alloc(index, NULL, &h, &count) == MPI_SUCCESS);
  int limit = -1; /* a numeric setting: an MPI_INT */
  CHECK(MPI_T_cvar_read(h, &limit) == MPI_SUCCESS && limit > 0);
  MPI_T_cvar_handle_free(&h);
  return (size_t)limit;
}

static void fill(unsigned char* b, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; ++i) b[i] = (unsigned char)(i * 131 + seed);
}
static int intact(const unsigned char* b, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; ++i)
    if (b[i] != (unsigned char)(i * 131 + seed)) return 0;
  return 1;
}

/* One message of each size from sender to receiver; the sender's counters say which path. */
static void sizes(int sender, int me, int peer, size_t limit, int check_paths,
                  MPI_T_pvar_handle eager, MPI_T_pvar_handle single) {
  const size_t list[] = {0, 1, 31, 32, 33, 100, limit - 1, limit, limit + 1, 3 * limit + 7,
                         1u << 20};
  const int n = (int)(sizeof list / sizeof list[0]);
  unsigned char* buf = malloc((1u << 20) + 64);
  for (int i = 0; i < n; ++i) {
    const size_t bytes = list[i];
    snprintf(check_context_, sizeof check_context_, "a message of %zu bytes", bytes);
    if (me == sender) {
      const unsigned long long e0 = value(eager), s0 = value(single);
      fill(buf, bytes, (unsigned)i);
      CHECK_MPI(MPI_Send(buf, (int)bytes, MPI_BYTE, peer, i, MPI_COMM_WORLD));
      if (check_paths) {
        CHECK(value(eager) - e0 == (bytes <= limit ? 1u : 0u));
        CHECK(value(single) - s0 == (bytes > limit ? 1u : 0u));
      }
    } else {
      MPI_Status st;
      int got = -1;
      memset(buf, 0, bytes + 64);
      CHECK_MPI(MPI_Recv(buf, (int)bytes + 64, MPI_BYTE, peer, i, MPI_COMM_WORLD, &st));
      CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &got));
      CHECK(got == (int)bytes && st.MPI_SOURCE == peer && st.MPI_TAG == i);
      CHECK(intact(buf, bytes, (unsigned)i) && buf[bytes] == 0);
    }
  }
  free(buf);
}

/* More unexpected bytes than any ring holds, posted before the receiver receives anything. */
static void flood(int sender, int me, int peer) {
  enum { kCount = 1500, kBytes = 3000 };
  unsigned char* buf = malloc((size_t)kCount * kBytes);
  snprintf(check_context_, sizeof check_context_, "a flood of %d unexpected messages", kCount);
  if (me == sender) {
    MPI_Request* r = malloc(sizeof(MPI_Request) * kCount);
    for (int i = 0; i < kCount; ++i) {
      fill(buf + (size_t)i * kBytes, kBytes, (unsigned)i);
      CHECK_MPI(MPI_Isend(buf + (size_t)i * kBytes, kBytes, MPI_BYTE, peer, 5, MPI_COMM_WORLD, &r[i]));
    }
    CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, 6, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Waitall(kCount, r, MPI_STATUSES_IGNORE));
    free(r);
  } else {
    CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < kCount; ++i) {
      CHECK_MPI(MPI_Recv(buf, kBytes, MPI_BYTE, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CHECK(intact(buf, kBytes, (unsigned)i)); /* in order */
    }
  }
  free(buf);
}

/* Probe, matched probe and truncation, on an eager and on a single-copy message. */
static void probes(int sender, int me, int peer, size_t limit) {
  const size_t list[] = {limit / 2, 4 * limit};
  for (int k = 0; k < 2; ++k) {
    const size_t bytes = list[k];
    snprintf(check_context_, sizeof check_context_, "probes of a %zu-byte message", bytes);
    unsigned char* buf = calloc(bytes, 1);
    if (me == sender) {
      fill(buf, bytes, 9);
      CHECK_MPI(MPI_Send(buf, (int)bytes, MPI_BYTE, peer, 20, MPI_COMM_WORLD));
      CHECK_MPI(MPI_Send(buf, (int)bytes, MPI_BYTE, peer, 21, MPI_COMM_WORLD));
      CHECK_MPI(MPI_Send(buf, (int)bytes, MPI_BYTE, peer, 22, MPI_COMM_WORLD));
    } else {
      MPI_Status st;
      int got = -1;
      CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, &st));
      CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &got));
      CHECK(got == (int)bytes && st.MPI_SOURCE == peer);
      CHECK_MPI(MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CHECK(intact(buf, bytes, 9));
      MPI_Message m;
      CHECK_MPI(MPI_Mprobe(peer, 21, MPI_COMM_WORLD, &m, &st));
      memset(buf, 0, bytes);
      CHECK_MPI(MPI_Mrecv(buf, (int)bytes, MPI_BYTE, &m, &st));
      CHECK(m == MPI_MESSAGE_NULL && intact(buf, bytes, 9));
      memset(buf, 0, bytes);
      const int rc = MPI_Recv(buf, (int)bytes / 2, MPI_BYTE, peer, 22, MPI_COMM_WORLD, &st);
      int cls = -1;
      MPI_Error_class(rc, &cls);
      CHECK(cls == MPI_ERR_TRUNCATE && buf[bytes / 2] == 0); /* nothing past the buffer */
    }
    free(buf);
  }
}

/* A synchronous send completes only once its receive is posted; a cancelled receive says so. */
static void sync_and_cancel(int sender, int me, int peer) {
  snprintf(check_context_, sizeof check_context_, "MPI_Issend and MPI_Cancel");
  int token = 7, flag = 1;
  if (me == sender) {
    MPI_Request r;
    CHECK_MPI(MPI_Issend(&token, 1, MPI_INT, peer, 30, MPI_COMM_WORLD, &r));
    const double until = MPI_Wtime() + 0.05;
    while (MPI_Wtime() < until) {
      CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
      CHECK(!flag);
    }
    CHECK_MPI(MPI_Send(&token, 1, MPI_INT, peer, 31, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  } else {
    MPI_Request r;
    MPI_Status st;
    CHECK_MPI(MPI_Irecv(&token, 1, MPI_INT, peer, 99, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK(flag);
    CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, peer, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, peer, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(token == 7);
  }
}

/* A single-copy send that no receive has matched is withdrawn by MPI_Cancel on this node (the
 * network transport completes it normally instead: then it must still arrive). */
static void cancel_send(int sender, int me, int peer, size_t limit, int off) {
  snprintf(check_context_, sizeof check_context_, "MPI_Cancel of an unmatched single-copy send");
  const int n = (int)(4 * limit);
  unsigned char* buf = calloc((size_t)n, 1);
  int cancelled = -1;
  if (me == sender) {
    MPI_Request r;
    MPI_Status st;
    fill(buf, (size_t)n, 3);
    CHECK_MPI(MPI_Isend(buf, n, MPI_BYTE, peer, 40, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Cancel(&r));
    if (off) CHECK_MPI(MPI_Send(&cancelled, 1, MPI_INT, peer, 41, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
    CHECK(cancelled == !off);
    if (!off) CHECK_MPI(MPI_Send(&cancelled, 1, MPI_INT, peer, 41, MPI_COMM_WORLD));
  } else {
    int flag = 1;
    CHECK_MPI(MPI_Recv(&cancelled, 1, MPI_INT, peer, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    if (!off) {
      CHECK_MPI(MPI_Iprobe(peer, 40, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
      CHECK(!flag);
    } else {
      CHECK_MPI(MPI_Recv(buf, n, MPI_BYTE, peer, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CHECK(intact(buf, (size_t)n, 3));
    }
  }
  free(buf);
}

int main(int argc, char** argv) {
  const int off = argc > 1 && strcmp(argv[1], "off") == 0;
  int provided;
  MPI_Init(&argc, &argv);
  CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(MPI_T_pvar_session_create(&session) == MPI_SUCCESS);
  MPI_T_pvar_handle eager = counter("shm_eager_messages_sent");
  MPI_T_pvar_handle single = counter("shm_single_copy_messages_sent");
  const size_t limit = eager_limit();
  const int peer = rank ^ 1;
  if (peer < size) {
    sizes(rank & ~1, rank, peer, limit, !off, eager, single);
    sizes(rank | 1, rank, peer, limit, !off, eager, single); /* the other way */
    flood(rank & ~1, rank, peer);
    probes(rank | 1, rank, peer, limit);
    sync_and_cancel(rank & ~1, rank, peer);
    cancel_send(rank & ~1, rank, peer, limit, off);
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (off) CHECK(value(eager) == 0 && value(single) == 0);
  if (!off && peer < size && rank % 2 == 0) CHECK(value(eager) + value(single) > 1500);
  MPI_T_pvar_session_free(&session);
  MPI_T_finalize();
  MPI_Finalize();
  return 0;
}
