/* A program for the profiler's tests: point-to-point traffic of every kind the communication
 * matrix counts (blocking, nonblocking, sendrecv, persistent, on a communicator whose ranks are
 * the world's reversed, to MPI_PROC_NULL), a derived datatype freed and its handle reused,
 * two threads sending at once (MPI_THREAD_MULTIPLE), collectives, a barrier that rank 0 reaches
 * 300 ms late, calls made while MPI_Pcontrol(0) has paused the profile, and enough exchanges from
 * one place for the profiler to count them on its fast path, with handles freed and replaced under
 * it. It checks its own data, and prints what it did:
 *   did RANK FUNCTION CALLS BYTES   for every MPI function it called while profiled
 *   sent RANK TO BYTES MESSAGES     for its point-to-point sends by world rank
 *   looped RANK NS                  the time its loop of many MPI_Iprobe calls took
 *   site RANK FUNCTION LINE CALLS   the calls made at the MPI_Recv call sites of exchange()
 * which the test compares with the profiler's report. Needs 2 ranks or more. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { kMaxFunctions = 64, kMaxRanks = 64 };

static struct { const char* name; long calls, bytes; } g_did[kMaxFunctions];
static long g_sent_bytes[kMaxRanks], g_sent_messages[kMaxRanks];
static int g_rank, g_size;
static int g_site_lines[2];
static long g_site_calls[2];

/* One call of `name` moving `bytes` (count x datatype size of its first buffer). */
static void did(const char* name, long bytes) {
  int i = 0;
  while (g_did[i].name && strcmp(g_did[i].name, name) != 0) ++i;
  g_did[i].name = name;
  g_did[i].calls += 1;
  g_did[i].bytes += bytes;
}

static void sent_to(int world_rank, long bytes) {
  g_sent_bytes[world_rank] += bytes;
  g_sent_messages[world_rank] += 1;
}

static void check(int ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "rank %d: wrong data after %s\n", g_rank, what);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

/* Three messages of rank+1 ints around the ring: Irecv, Send, Wait. */
static void ring(void) {
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  for (int i = 0; i < 3; ++i) {
    int out[kMaxRanks], in[kMaxRanks];
    for (int k = 0; k <= g_rank; ++k) out[k] = g_rank * 100 + k;
    MPI_Request r;
    MPI_Irecv(in, left + 1, MPI_INT, left, i, MPI_COMM_WORLD, &r);
    did("MPI_Irecv", 4L * (left + 1));
    MPI_Send(out, g_rank + 1, MPI_INT, right, i, MPI_COMM_WORLD);
    did("MPI_Send", 4L * (g_rank + 1));
    sent_to(right, 4L * (g_rank + 1));
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    did("MPI_Wait", 0);
    check(in[left] == left * 100 + left, "the ring");
  }
}

/* Two Isends of 16 doubles two ranks on, received with MPI_Recv; then a Sendrecv of 3 shorts. */
static void nonblocking_and_sendrecv(void) {
  const int to = (g_rank + 2) % g_size, from = (g_rank + g_size - 2) % g_size;
  double out[2][16], in[16];
  MPI_Request r[2];
  for (int i = 0; i < 2; ++i) {
    for (int k = 0; k < 16; ++k) out[i][k] = g_rank + k + i;
    MPI_Isend(out[i], 16, MPI_DOUBLE, to, 10 + i, MPI_COMM_WORLD, &r[i]);
    did("MPI_Isend", 128);
    sent_to(to, 128);
  }
  for (int i = 0; i < 2; ++i) {
    MPI_Recv(in, 16, MPI_DOUBLE, from, 10 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    did("MPI_Recv", 128);
    check(in[15] == from + 15 + i, "MPI_Isend");
  }
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  did("MPI_Waitall", 0);
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  short s[3] = {(short)g_rank, 1, 2}, got[3];
  MPI_Sendrecv(s, 3, MPI_SHORT, right, 20, got, 3, MPI_SHORT, left, 20, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  did("MPI_Sendrecv", 6);
  sent_to(right, 6);
  check(got[0] == left, "MPI_Sendrecv");
}

/* A persistent send of 5 ints to the left and its receive, started twice with MPI_Startall. */
static void persistent(void) {
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  int out[5] = {g_rank, 0, 0, 0, 0}, in[5];
  MPI_Request r[2];
  MPI_Send_init(out, 5, MPI_INT, left, 30, MPI_COMM_WORLD, &r[0]);
  did("MPI_Send_init", 20);
  MPI_Recv_init(in, 5, MPI_INT, right, 30, MPI_COMM_WORLD, &r[1]);
  did("MPI_Recv_init", 20);
  for (int i = 0; i < 2; ++i) {
    MPI_Startall(2, r);
    did("MPI_Startall", 0);
    sent_to(left, 20);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    did("MPI_Waitall", 0);
    check(in[0] == right, "the persistent send");
  }
  for (int i = 0; i < 2; ++i) {
    MPI_Request_free(&r[i]);
    did("MPI_Request_free", 0);
  }
}

/* A communicator of all the world's ranks ordered by `key`; this rank's rank there in *r, the size
 * in *n. */
static MPI_Comm split_world(int key, int* r, int* n) {
  MPI_Comm comm;
  MPI_Comm_split(MPI_COMM_WORLD, 0, key, &comm);
  did("MPI_Comm_split", 0);
  MPI_Comm_rank(comm, r);
  did("MPI_Comm_rank", 0);
  MPI_Comm_size(comm, n);
  did("MPI_Comm_size", 0);
  return comm;
}

/* On a communicator whose ranks are the world's reversed, each rank sends 9 chars to its next
 * rank there (synchronous mode), which is its previous rank in the world. */
static void reversed_communicator(void) {
  int r, n;
  MPI_Comm reversed = split_world(g_size - 1 - g_rank, &r, &n);
  char out[9] = "reversed", in[9];
  MPI_Request req;
  MPI_Irecv(in, 9, MPI_CHAR, (r + n - 1) % n, 40, reversed, &req);
  did("MPI_Irecv", 9);
  MPI_Ssend(out, 9, MPI_CHAR, (r + 1) % n, 40, reversed);
  did("MPI_Ssend", 9);
  sent_to((g_rank + g_size - 1) % g_size, 9);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  did("MPI_Wait", 0);
  check(strcmp(in, "reversed") == 0, "the reversed communicator");
  MPI_Comm_free(&reversed);
  did("MPI_Comm_free", 0);
}

/* Sends with a derived type of 3 ints, frees it, and sends with one of 5 ints, which may take the
 * freed handle: the profiler must not keep the old size. Also a send to MPI_PROC_NULL. */
static void datatypes(void) {
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  int out[10] = {0}, in[10];
  for (int elements = 3; elements <= 5; elements += 2) {
    MPI_Datatype t;
    MPI_Type_contiguous(elements, MPI_INT, &t);
    did("MPI_Type_contiguous", 0);
    MPI_Type_commit(&t);
    did("MPI_Type_commit", 0);
    const int count = elements == 3 ? 2 : 1;
    MPI_Sendrecv(out, count, t, right, 50, in, count, t, left, 50, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    did("MPI_Sendrecv", 4L * elements * count);
    sent_to(right, 4L * elements * count);
    MPI_Type_free(&t);
    did("MPI_Type_free", 0);
  }
  MPI_Send(out, 7, MPI_INT, MPI_PROC_NULL, 60, MPI_COMM_WORLD);
  did("MPI_Send", 28);
}

/* One exchange on comm: count elements of type to rank `to` there and from rank `from`, the
 * receive made at one of two call sites by the block of 100 that i is in; counted by the caller,
 * but for the sites, which are counted here when `counted`. The send moves between two sites by
 * the block of 150 (not reported: sites that take little time are not among the report's
 * busiest), so that some sends pass their wrapper's first checks and fail the ones after the
 * call. */
static void exchange(MPI_Comm comm, int to, int from, MPI_Datatype type, int count, int i,
                     int counted) {
  int out[10] = {g_rank}, in[10];
  MPI_Request r;
  if (i / 150 % 2 == 0)
    MPI_Isend(out, count, type, to, 90, comm, &r);
  else
    MPI_Isend(out, count, type, to, 90, comm, &r);
  const int site = i / 100 % 2;
  if (site == 0) {
    MPI_Recv(in, count, type, from, 90, comm, MPI_STATUS_IGNORE); g_site_lines[0] = __LINE__;
  } else {
    MPI_Recv(in, count, type, from, 90, comm, MPI_STATUS_IGNORE); g_site_lines[1] = __LINE__;
  }
  g_site_calls[site] += counted;
  MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* Past the first 1024 calls of a function on a thread the profiler counts most calls without a
 * lookup, from what it cached at the last call: the site, the datatype's size and the
 * communicator's world ranks. Two rounds of kExchanges exchanges, each on a communicator and
 * with a derived type freed at its end, so that the second round's (other ranks, other size)
 * likely take the first's handles; the profile must still count every call, byte and message. */
static void cached_handles(void) {
  enum { kExchanges = 1200 };
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  for (int round = 0; round < 2; ++round) {
    /* round 0: the world's ranks reversed, so the next rank is the left one; round 1: shifted by
     * one, so the next rank is the right one. */
    int r, n;
    MPI_Comm comm = split_world(round == 0 ? g_size - 1 - g_rank : right, &r, &n);
    const int elements = round == 0 ? 3 : 5, count = round == 0 ? 2 : 1;
    MPI_Datatype type;
    MPI_Type_contiguous(elements, MPI_INT, &type);
    did("MPI_Type_contiguous", 0);
    MPI_Type_commit(&type);
    did("MPI_Type_commit", 0);
    const long bytes = 4L * elements * count;
    for (int i = 0; i < kExchanges; ++i) {
      exchange(comm, (r + 1) % n, (r + n - 1) % n, type, count, i, 1);
      did("MPI_Isend", bytes);
      sent_to(round == 0 ? left : right, bytes);
      did("MPI_Recv", bytes);
      did("MPI_Wait", 0);
    }
    MPI_Type_free(&type);
    did("MPI_Type_free", 0);
    MPI_Comm_free(&comm);
    did("MPI_Comm_free", 0);
  }
}

/* Five Sendrecvs of 2 ints to the right, on a tag of the thread's own. */
static void* sendrecvs(void* tag) {
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  for (int i = 0; i < 5; ++i) {
    int out[2] = {g_rank, i}, in[2];
    MPI_Sendrecv(out, 2, MPI_INT, right, *(int*)tag, in, 2, MPI_INT, left, *(int*)tag,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    check(in[0] == left && in[1] == i, "a thread's MPI_Sendrecv");
  }
  return NULL;
}

/* This thread and a second one each make five MPI_Sendrecv at the same time. */
static void threads(void) {
  int tags[2] = {80, 81};
  pthread_t other;
  pthread_create(&other, NULL, sendrecvs, &tags[1]);
  sendrecvs(&tags[0]);
  pthread_join(other, NULL);
  for (int i = 0; i < 10; ++i) {
    did("MPI_Sendrecv", 8);
    sent_to((g_rank + 1) % g_size, 8);
  }
}

/* Many calls of one cheap function on rank 0, timed by the program as a whole, while the other
 * ranks sleep in a barrier (so that the ranks do not take turns on an oversubscribed machine in
 * the middle of it): the profiler times only a sample of them (WEFT_PROFILE=summary without
 * trace), and its total must still be about what they took. */
static void many_calls(void) {
  enum { kCalls = 20000 };
  if (g_rank == 0) {
    int flag = 0;
    const double start = MPI_Wtime();
    for (int i = 0; i < kCalls; ++i)
      MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    const double ns = (MPI_Wtime() - start) * 1e9;
    check(!flag, "MPI_Iprobe found a message nobody sent");
    for (int i = 0; i < kCalls; ++i) did("MPI_Iprobe", 0);
    printf("looped %d %.0f\n", g_rank, ns);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  did("MPI_Barrier", 0);
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided != MPI_THREAD_MULTIPLE) MPI_Abort(MPI_COMM_WORLD, 3);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  did("MPI_Comm_rank", 0);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  did("MPI_Comm_size", 0);
  if (g_size < 2 || g_size > kMaxRanks) MPI_Abort(MPI_COMM_WORLD, 2);
  ring();
  nonblocking_and_sendrecv();
  persistent();
  reversed_communicator();
  datatypes();
  threads();
  many_calls();
  cached_handles();
  double x = g_rank, sum = 0;
  for (int i = 0; i < 2; ++i) {
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    did("MPI_Allreduce", 8);
  }
  check(sum == g_size * (g_size - 1) / 2.0, "MPI_Allreduce");
  /* Paused: none of these may appear in the profile. */
  MPI_Pcontrol(0);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Sendrecv_replace(&x, 1, MPI_DOUBLE, (g_rank + 1) % g_size, 70, (g_rank + g_size - 1) % g_size,
                       70, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  exchange(MPI_COMM_WORLD, (g_rank + 1) % g_size, (g_rank + g_size - 1) % g_size, MPI_INT, 1, 0, 0);
  MPI_Pcontrol(1);
  if (g_rank == 0) usleep(300000);
  MPI_Barrier(MPI_COMM_WORLD); /* the late barrier */
  did("MPI_Barrier", 0);
  for (int i = 0; g_did[i].name; ++i)
    printf("did %d %s %ld %ld\n", g_rank, g_did[i].name, g_did[i].calls, g_did[i].bytes);
  for (int site = 0; site < 2; ++site)
    printf("site %d MPI_Recv %d %ld\n", g_rank, g_site_lines[site], g_site_calls[site]);
  for (int to = 0; to < g_size; ++to)
    if (g_sent_messages[to] > 0)
      printf("sent %d %d %ld %ld\n", g_rank, to, g_sent_bytes[to], g_sent_messages[to]);
  fflush(stdout);
  MPI_Finalize();
  return 0;
}
