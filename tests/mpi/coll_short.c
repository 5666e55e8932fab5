/* The short paths of small blocking collectives (coll/region_short.hpp), checked by results and
 * by the MPI_T counter coll_short_calls: allreduce and reduce of doubles whose sum depends on the
 * order (every rank must get the bits of the rank-order fold), with one rank on the general path
 * (a derived type) while the others take the short one, every root, MPI_IN_PLACE, bcast and
 * allgather with one rank on the general path, short calls between nonblocking calls in flight,
 * a barrier that must wait for the slowest rank, and a broadcast whose sizes differ (an error, not
 * a wrong answer), alltoall and reduce_scatter_block (each rank takes its part of every post). Run
 * under WEFT_<COLL>_ALGORITHM=shm; with argument "off" (WEFT_SHM_COLL=0) no call may take a short
 * path. Posts of up to 48 bytes go in a region's lines, larger ones in its slots: the vectors here
 * use both. */
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

enum { kMaxLen = 10 }; /* 10 doubles or ints: 80 or 40 bytes */
static MPI_T_pvar_session session;
static MPI_T_pvar_handle short_handle;
static int expect_short = 1; /* 1: every plain call takes it, 0: none, -1: not checked */

static unsigned long long short_calls(void) {
  unsigned long long v = 0;
  CHECK(MPI_T_pvar_read(session, short_handle, &v) == MPI_SUCCESS);
  return v;
}

/* What this rank's short-path counter must have grown by: `n` where it takes the short path. */
static void expect_grown(unsigned long long before, int n, int takes_short) {
  if (expect_short < 0) return;
  const unsigned long long want = expect_short && takes_short ? (unsigned long long)n : 0;
  CHECK(short_calls() - before == want);
}

/* The region folds in rank order, bit for bit; message algorithms (WEFT_SHM_COLL=0) may fold in
 * another order, which moves the huge elements by a few units of their last place. */
static int same_sum(const double* got, const double* want, int len) {
  if (expect_short == 1) return memcmp(got, want, (size_t)len * sizeof(double)) == 0;
  for (int i = 0; i < len; ++i)
    if (fabs(got[i] - want[i]) > 8 + 1e-12 * fabs(want[i])) return 0;
  return 1;
}

/* Rank r's contribution: even elements are huge or one, so their sum depends on the order. */
static void contribution(int rank, int call, int len, double* x) {
  for (int i = 0; i < len; ++i)
    x[i] = i % 2 == 0 ? (rank % 2 == 0 ? 1e16 : 1.0) * (rank % 4 < 2 ? 1 : -1) + call + i
                      : 0.1 * (rank + 1) + call * 0.01 + i;
}

static void left_fold(int size, int call, int len, double* want) {
  double x[kMaxLen];
  contribution(0, call, len, want);
  for (int r = 1; r < size; ++r) {
    contribution(r, call, len, x);
    for (int i = 0; i < len; ++i) want[i] = want[i] + x[i];
  }
}

/* Allreduce and reduce of `len` doubles; the rank `odd_one` passes a derived type, which takes
 * the general path. */
static void reductions(MPI_Comm comm, int odd_one, int len) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Datatype vec;
  MPI_Type_contiguous(len, MPI_DOUBLE, &vec);
  MPI_Type_commit(&vec);
  const int general = rank == odd_one;
  const size_t bytes = (size_t)len * sizeof(double);
  const unsigned long long before = short_calls();
  enum { kCalls = 60 };
  for (int call = 0; call < kCalls; ++call) {
    snprintf(check_context_, sizeof check_context_,
             "reductions of %d doubles, call %d, rank %d general", len, call, odd_one);
    double mine[kMaxLen], got[kMaxLen], want[kMaxLen];
    contribution(rank, call, len, mine);
    left_fold(size, call, len, want);
    if (call % 2 == 0) {
      CHECK_MPI(general ? MPI_Allreduce(mine, got, 1, vec, MPI_SUM, comm)
                        : MPI_Allreduce(mine, got, len, MPI_DOUBLE, MPI_SUM, comm));
    } else {
      memcpy(got, mine, bytes);
      CHECK_MPI(general ? MPI_Allreduce(MPI_IN_PLACE, got, 1, vec, MPI_SUM, comm)
                        : MPI_Allreduce(MPI_IN_PLACE, got, len, MPI_DOUBLE, MPI_SUM, comm));
    }
    CHECK(same_sum(got, want, len));
    const int root = call % size;
    for (int i = 0; i < len; ++i) got[i] = -1;
    const void* send = mine;
    if (rank == root && call % 3 == 0) {
      memcpy(got, mine, bytes);
      send = MPI_IN_PLACE;
    }
    CHECK_MPI(general ? MPI_Reduce(send, got, 1, vec, MPI_SUM, root, comm)
                      : MPI_Reduce(send, got, len, MPI_DOUBLE, MPI_SUM, root, comm));
    if (rank == root) CHECK(same_sum(got, want, len));
  }
  expect_grown(before, 2 * kCalls, !general);
  MPI_Type_free(&vec);
}

/* MINLOC on MPI_2INT: a pair type without gaps takes the short path too. */
static void minloc(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (int call = 0; call < 20; ++call) {
    int mine[2] = {(rank * 7 + call) % size, rank}, got[2];
    CHECK_MPI(MPI_Allreduce(mine, got, 1, MPI_2INT, MPI_MINLOC, comm));
    /* The lowest value is 0; the lowest rank holding it wins ties. */
    int best = -1;
    for (int r = 0; r < size && best < 0; ++r)
      if ((r * 7 + call) % size == 0) best = r;
    CHECK(got[0] == 0 && got[1] == best);
  }
}

/* Bcast and allgather of `len` ints; the rank `odd_one` passes a derived type. */
static void moves(MPI_Comm comm, int odd_one, int len) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Datatype vec;
  MPI_Type_contiguous(len, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  const int general = rank == odd_one;
  int* all = malloc(sizeof(int) * (size_t)len * (size_t)size);
  const unsigned long long before = short_calls();
  enum { kCalls = 40 };
  for (int call = 0; call < kCalls; ++call) {
    snprintf(check_context_, sizeof check_context_,
             "bcast/allgather of %d ints, call %d, rank %d general", len, call, odd_one);
    const int root = (call * 3) % size;
    int data[kMaxLen], mine[kMaxLen];
    for (int i = 0; i < len; ++i) {
      data[i] = rank == root ? call * 100 + i : -1;
      mine[i] = rank * 1000 + call * 10 + i;
    }
    CHECK_MPI(general ? MPI_Bcast(data, 1, vec, root, comm)
                      : MPI_Bcast(data, len, MPI_INT, root, comm));
    for (int i = 0; i < len; ++i) CHECK(data[i] == call * 100 + i);
    for (int i = 0; i < len * size; ++i) all[i] = -9;
    if (call % 2 == 0) {
      CHECK_MPI(general ? MPI_Allgather(mine, 1, vec, all, 1, vec, comm)
                        : MPI_Allgather(mine, len, MPI_INT, all, len, MPI_INT, comm));
    } else {
      memcpy(all + len * rank, mine, sizeof(int) * (size_t)len);
      CHECK_MPI(general
                    ? MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, vec, comm)
                    : MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, len, MPI_INT, comm));
    }
    for (int r = 0; r < size; ++r)
      for (int i = 0; i < len; ++i) CHECK(all[len * r + i] == r * 1000 + call * 10 + i);
  }
  expect_grown(before, 2 * kCalls, !general);
  free(all);
  MPI_Type_free(&vec);
}

/* Alltoall of `len` ints per block and reduce_scatter_block of `len` doubles per block; the rank
 * `odd_one` passes derived types. Each post holds every block; a rank fetches part of it. */
static void exchanges(MPI_Comm comm, int odd_one, int len) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Datatype ints, doubles;
  MPI_Type_contiguous(len, MPI_INT, &ints);
  MPI_Type_contiguous(len, MPI_DOUBLE, &doubles);
  MPI_Type_commit(&ints);
  MPI_Type_commit(&doubles);
  const int general = rank == odd_one;
  const size_t n = (size_t)len * (size_t)size;
  int* out = malloc(sizeof(int) * n);
  int* in = malloc(sizeof(int) * n);
  double* vec = malloc(sizeof(double) * n);
  double* x = malloc(sizeof(double) * n);
  const unsigned long long before = short_calls();
  enum { kCalls = 30 };
  for (int call = 0; call < kCalls; ++call) {
    snprintf(check_context_, sizeof check_context_,
             "alltoall/reduce_scatter_block of %d per block, call %d, rank %d general", len, call,
             odd_one);
    for (size_t i = 0; i < n; ++i) {
      out[i] = rank * 100000 + call * 100 + (int)i;
      in[i] = -1;
    }
    CHECK_MPI(general ? MPI_Alltoall(out, 1, ints, in, 1, ints, comm)
                      : MPI_Alltoall(out, len, MPI_INT, in, len, MPI_INT, comm));
    for (int r = 0; r < size; ++r)
      for (int i = 0; i < len; ++i)
        CHECK(in[r * len + i] == r * 100000 + call * 100 + rank * len + i);
    /* Every rank's vector of size blocks; this rank's block of the rank-order sum. */
    double got[kMaxLen], want[kMaxLen];
    for (int i = 0; i < len; ++i) want[i] = 0;
    for (int r = 0; r < size; ++r) {
      contribution(r, call, (int)n, x);
      for (int i = 0; i < len; ++i)
        want[i] = r == 0 ? x[rank * len + i] : want[i] + x[rank * len + i];
      if (r == rank) memcpy(vec, x, sizeof(double) * n);
    }
    CHECK_MPI(general ? MPI_Reduce_scatter_block(vec, got, 1, doubles, MPI_SUM, comm)
                      : MPI_Reduce_scatter_block(vec, got, len, MPI_DOUBLE, MPI_SUM, comm));
    CHECK(same_sum(got, want, len));
  }
  expect_grown(before, 2 * kCalls, !general);
  free(out);
  free(in);
  free(vec);
  free(x);
  MPI_Type_free(&ints);
  MPI_Type_free(&doubles);
}

/* Short calls while nonblocking calls of the same communicator are in flight (they take later
 * and earlier call numbers in the same region; the barriers, later and earlier barrier numbers:
 * a short barrier between two nonblocking ones). */
static void between_nonblocking(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (int round = 0; round < 20; ++round) {
    int in[3], out[3], b = rank == 0 ? round : -1, sum = -1;
    MPI_Request reqs[5];
    for (int k = 0; k < 3; ++k) {
      in[k] = rank + k + round;
      CHECK_MPI(MPI_Iallreduce(&in[k], &out[k], 1, MPI_INT, MPI_SUM, comm, &reqs[k]));
      if (k == 1) CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, 0, comm));
    }
    CHECK_MPI(MPI_Ibarrier(comm, &reqs[3]));
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK_MPI(MPI_Barrier(comm));
    CHECK_MPI(MPI_Ibarrier(comm, &reqs[4]));
    CHECK_MPI(MPI_Waitall(5, reqs, MPI_STATUSES_IGNORE));
    const int ranks_sum = size * (size - 1) / 2;
    for (int k = 0; k < 3; ++k) CHECK(out[k] == ranks_sum + size * (k + round));
    CHECK(b == round && sum == ranks_sum);
  }
}

/* Nobody leaves a barrier before the last rank has entered it. */
static void barrier_waits(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int late = size - 1;
  CHECK_MPI(MPI_Barrier(comm));
  const double start = MPI_Wtime();
  if (rank == late) {
    const struct timespec nap = {0, 50 * 1000 * 1000};
    nanosleep(&nap, NULL);
  }
  CHECK_MPI(MPI_Barrier(comm));
  if (rank != late) CHECK(MPI_Wtime() - start >= 0.045);
}

/* The root broadcasts 4 ints, the others expect 2: an error on those, not a silent cut. */
static void sizes_differ(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int data[4] = {1, 2, 3, 4};
  const int rc = MPI_Bcast(data, rank == 0 ? 4 : 2, MPI_INT, 0, comm);
  if (rank == 0) {
    CHECK(rc == MPI_SUCCESS);
    return;
  }
  int cls = 0, len = 0;
  char text[MPI_MAX_ERROR_STRING];
  MPI_Error_class(rc, &cls);
  MPI_Error_string(rc, text, &len);
  CHECK(cls == MPI_ERR_TRUNCATE && strstr(text, "MPI_Bcast") != NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  /* "off": no call may take a short path. Forced (WEFT_*_ALGORITHM=shm) with shared memory on:
   * every plain call must. Otherwise (another transport's run of the programs) the counter is
   * not checked. */
  const char* forced = getenv("WEFT_ALLREDUCE_ALGORITHM");
  const char* shm = getenv("WEFT_SHM");
  const int off = argc > 1 && strcmp(argv[1], "off") == 0;
  expect_short = off ? 0
                 : forced != NULL && strcmp(forced, "shm") == 0 && !(shm && strcmp(shm, "0") == 0)
                     ? 1
                     : -1;
  int provided, index = -1, count = 0, size;
  MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  MPI_T_pvar_session_create(&session);
  CHECK(MPI_T_pvar_get_index("coll_short_calls", MPI_T_PVAR_CLASS_COUNTER, &index) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_handle_alloc(session, index, NULL, &short_handle, &count) == MPI_SUCCESS);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  MPI_Comm_size(comm, &size);
  if (size == 1 && expect_short == 1) expect_short = 0; /* one rank: no region */
  CHECK_MPI(MPI_Barrier(comm)); /* the first blocking call learns the region */
  /* 2 doubles and 3 ints go in a region's lines, 10 doubles in its slots. */
  for (int odd_one = -1; odd_one < size; odd_one += size) {
    reductions(comm, odd_one, 2);
    reductions(comm, odd_one, kMaxLen);
    moves(comm, odd_one, 3);
    moves(comm, odd_one, kMaxLen);
    exchanges(comm, odd_one, 1);
    exchanges(comm, odd_one, 3);
  }
  minloc(comm);
  between_nonblocking(comm);
  barrier_waits(comm);
  if (expect_short == 1) sizes_differ(comm); /* messages through a tree may cut it on the way */
  CHECK_MPI(MPI_Barrier(comm));
  MPI_Comm_free(&comm);
  MPI_T_pvar_handle_free(session, &short_handle);
  MPI_T_pvar_session_free(&session);
  MPI_T_finalize();
  MPI_Finalize();
  return 0;
}
