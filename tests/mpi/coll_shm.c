/* The node-region collectives (coll/node_region.hpp, the "shm" algorithms), checked by their
 * results and by the MPI_T counters of the algorithm that ran: allreduce, reduce, bcast, allgather
 * and barrier, with a non-commutative op (so the fold order shows), MPI_IN_PLACE, every root,
 * many calls in a row (both slots reused, stale posts must not be read), several nonblocking
 * calls in flight, a persistent call started many times, two disjoint communicators at once,
 * more communicators than the node has regions, regions freed and claimed again, and a call too
 * large for a slot (it must fall back to messages). Run under WEFT_<COLL>_ALGORITHM=shm; with
 * argument "off" (under WEFT_SHM_COLL=0) no call may take the region. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static MPI_T_pvar_session session;
static int expect_region = 1; /* 1: every call takes the region, 0: none, -1: not checked */

/* The MPI_T counter of calls of `coll`'s shm algorithm: handles made once, at the start, count
 * from then on. */
static const char* const kColls[] = {"barrier", "bcast", "reduce", "allreduce", "allgather"};
enum { kNumColls = 5 };
static MPI_T_pvar_handle handles[kNumColls];

static void start_counting(void) {
  for (int k = 0; k < kNumColls; ++k) {
    char name[64];
    snprintf(name, sizeof name, "coll_%s_shm_calls", kColls[k]);
    int index = -1, count = 0;
    CHECK(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_handle_alloc(session, index, NULL, &handles[k], &count) == MPI_SUCCESS);
  }
}

static unsigned long long shm_calls(const char* coll) {
  for (int k = 0; k < kNumColls; ++k) {
    if (strcmp(coll, kColls[k]) != 0) continue;
    unsigned long long v = 0;
    CHECK(MPI_T_pvar_read(session, handles[k], &v) == MPI_SUCCESS);
    return v;
  }
  CHECK(!"a collective with an shm algorithm");
  return 0;
}

/* Affine maps x -> a*x + b modulo a prime, composed: associative, not commutative. (a, b) as an
 * MPI_2INT; inout = in o inout, where in holds the lower ranks' maps. */
enum { kPrime = 1000003 };
typedef struct {
  int a, b;
} Affine;
static Affine compose(Affine outer_lower, Affine inner_higher) {
  /* Apply the lower ranks' map after the higher one's: (l o h)(x) = l.a * (h.a x + h.b) + l.b. */
  Affine r;
  r.a = (int)((long long)outer_lower.a * inner_higher.a % kPrime);
  r.b = (int)(((long long)outer_lower.a * inner_higher.b + outer_lower.b) % kPrime);
  return r;
}
static void affine_op(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  Affine* x = in;
  Affine* y = inout;
  for (int i = 0; i < *len; ++i) y[i] = compose(x[i], y[i]);
}
static Affine rank_map(int rank, int call, int i) {
  Affine m = {2 + (rank * 7 + call * 3 + i) % 97, (rank * 31 + call * 11 + i * 5) % 1009};
  return m;
}

/* Allreduce and reduce with the non-commutative op over many calls, in place and not. */
static void reductions(MPI_Comm comm, MPI_Op op) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  enum { kLen = 3 };
  for (int call = 0; call < 200; ++call) {
    snprintf(check_context_, sizeof check_context_, "allreduce/reduce call %d on %d ranks", call,
             size);
    Affine mine[kLen], got[kLen], want[kLen];
    for (int i = 0; i < kLen; ++i) {
      mine[i] = rank_map(rank, call, i);
      want[i] = rank_map(size - 1, call, i);
      for (int r = size - 2; r >= 0; --r) want[i] = compose(rank_map(r, call, i), want[i]);
    }
    if (call % 2 == 0) {
      CHECK_MPI(MPI_Allreduce(mine, got, kLen, MPI_2INT, op, comm));
    } else {
      memcpy(got, mine, sizeof mine);
      CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, got, kLen, MPI_2INT, op, comm));
    }
    CHECK(memcmp(got, want, sizeof want) == 0);
    const int root = call % size;
    memset(got, 0, sizeof got);
    if (rank == root && call % 3 == 0) {
      memcpy(got, mine, sizeof mine);
      CHECK_MPI(MPI_Reduce(MPI_IN_PLACE, got, kLen, MPI_2INT, op, root, comm));
    } else {
      CHECK_MPI(MPI_Reduce(mine, got, kLen, MPI_2INT, op, root, comm));
    }
    if (rank == root) CHECK(memcmp(got, want, sizeof want) == 0);
  }
}

static void broadcasts_and_allgathers(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int* all = malloc(sizeof(int) * 4 * (size_t)size);
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  for (int call = 0; call < 100; ++call) {
    snprintf(check_context_, sizeof check_context_, "bcast/allgather call %d on %d ranks", call,
             size);
    const int root = (call * 5) % size;
    int data[37];
    for (int i = 0; i < 37; ++i) data[i] = rank == root ? call * 1000 + i : -1;
    CHECK_MPI(MPI_Bcast(data, 37, MPI_INT, root, comm));
    for (int i = 0; i < 37; ++i) CHECK(data[i] == call * 1000 + i);

    int mine[2] = {rank * 100 + call, -rank};
    CHECK_MPI(MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, comm));
    for (int r = 0; r < size; ++r) CHECK(all[2 * r] == r * 100 + call && all[2 * r + 1] == -r);

    /* Allgatherv, uneven, in place: rank r contributes r % 3 + 1 ints. */
    int at = 0;
    for (int r = 0; r < size; ++r) {
      counts[r] = r % 3 + 1;
      displs[r] = at;
      at += counts[r];
    }
    for (int i = 0; i < at; ++i) all[i] = -7;
    for (int k = 0; k < counts[rank]; ++k) all[displs[rank] + k] = rank * 10 + k + call;
    CHECK_MPI(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts, displs, MPI_INT,
                             comm));
    for (int r = 0; r < size; ++r)
      for (int k = 0; k < counts[r]; ++k) CHECK(all[displs[r] + k] == r * 10 + k + call);
  }
  free(all);
  free(counts);
  free(displs);
}

/* No rank leaves the barrier before the last one, who comes 20 ms late, has entered: each rank
 * compares the time it left with the time the late one entered (CLOCK_MONOTONIC, one clock for
 * the whole node), which that one broadcasts afterwards. */
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static void barrier_waits(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  snprintf(check_context_, sizeof check_context_, "a barrier waiting for a late rank");
  for (int round = 0; round < 3; ++round) {
    const int late = (round + 1) % size;
    double entered = 0;
    if (rank == late) {
      usleep(20000);
      entered = now();
    }
    CHECK_MPI(MPI_Barrier(comm));
    const double left = now();
    CHECK_MPI(MPI_Bcast(&entered, 1, MPI_DOUBLE, late, comm));
    CHECK(left >= entered);
  }
}

/* Several nonblocking calls in flight at once, then a persistent call started many times. */
static void nonblocking_and_persistent(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  snprintf(check_context_, sizeof check_context_, "nonblocking calls in flight");
  enum { kCalls = 6 };
  for (int round = 0; round < 30; ++round) {
    long in[kCalls], out[kCalls];
    MPI_Request req[kCalls + 1];
    for (int k = 0; k < kCalls; ++k) {
      in[k] = rank + 1000L * k + round;
      CHECK_MPI(MPI_Iallreduce(&in[k], &out[k], 1, MPI_LONG, MPI_SUM, comm, &req[k]));
    }
    CHECK_MPI(MPI_Ibarrier(comm, &req[kCalls]));
    CHECK_MPI(MPI_Waitall(kCalls + 1, req, MPI_STATUSES_IGNORE));
    for (int k = 0; k < kCalls; ++k)
      CHECK(out[k] == (long)size * (size - 1) / 2 + (long)size * (1000L * k + round));
  }
  snprintf(check_context_, sizeof check_context_, "a persistent allreduce started 100 times");
  double in = 0, out = 0;
  MPI_Request p;
  CHECK_MPI(MPI_Allreduce_init(&in, &out, 1, MPI_DOUBLE, MPI_MAX, comm, MPI_INFO_NULL, &p));
  for (int start = 0; start < 100; ++start) {
    in = rank == start % size ? 1000.0 + start : (double)start;
    CHECK_MPI(MPI_Start(&p));
    CHECK_MPI(MPI_Wait(&p, MPI_STATUS_IGNORE));
    CHECK(out == 1000.0 + start);
  }
  MPI_Request_free(&p);
}

static void everything(MPI_Comm comm, MPI_Op op) {
  MPI_Barrier(comm); /* the first blocking call: the communicator claims its region */
  reductions(comm, op);
  broadcasts_and_allgathers(comm);
  nonblocking_and_persistent(comm);
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init(&argc, &argv);
  MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  CHECK(MPI_T_pvar_session_create(&session) == MPI_SUCCESS);
  start_counting();
  /* "off": no call may take the region. Forced (WEFT_*_ALGORITHM=shm) with shared memory on:
   * every call of these programs must. Otherwise (another transport's run of the programs)
   * the counters are not checked. */
  const char* forced = getenv("WEFT_ALLREDUCE_ALGORITHM");
  const char* shm = getenv("WEFT_SHM");
  const int off = argc > 1 && strcmp(argv[1], "off") == 0;
  expect_region = off ? 0 : forced != NULL && strcmp(forced, "shm") == 0 &&
                                !(shm != NULL && strcmp(shm, "0") == 0) ? 1 : -1;
  errors_return(); /* communicators made from the world inherit it */
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Op op;
  MPI_Op_create(affine_op, 0, &op);

  everything(MPI_COMM_WORLD, op);
  barrier_waits(MPI_COMM_WORLD);
  snprintf(check_context_, sizeof check_context_, "the algorithm counters");
  const unsigned long long region_calls = shm_calls("allreduce") + shm_calls("bcast") +
                                          shm_calls("reduce") + shm_calls("allgather") +
                                          shm_calls("barrier");
  if (size == 1 || expect_region == 0) {
    CHECK(region_calls == 0);
  } else if (expect_region == 1) {
    /* Everything but the first barrier, which claimed the region. */
    CHECK(region_calls >= 200 * 2 + 100 * 3 + 30 * 7 + 100);
  }

  /* Two disjoint halves at once, each with its own region, and a duplicate of one. */
  MPI_Comm half, dup;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half));
  CHECK_MPI(MPI_Comm_dup(half, &dup));
  everything(half, op);
  everything(dup, op);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&half);

  /* More communicators at once than a node has regions (16 by default): the ones without use
   * messages. Then all are freed and as many made again: the regions come back, emptied. */
  enum { kComms = 20 };
  for (int round = 0; round < 2; ++round) {
    MPI_Comm many[kComms];
    for (int k = 0; k < kComms; ++k) {
      CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &many[k]));
      MPI_Barrier(many[k]);
    }
    for (int k = 0; k < kComms; ++k) {
      snprintf(check_context_, sizeof check_context_, "communicator %d of %d made at once, round %d",
               k, kComms, round);
      long v = rank + k, sum = 0;
      CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, many[k]));
      CHECK(sum == (long)size * (size - 1) / 2 + (long)size * k);
    }
    for (int k = 0; k < kComms; ++k) MPI_Comm_free(&many[k]);
  }

  /* Larger than a slot (16 KiB): messages carry it, with the same result. */
  snprintf(check_context_, sizeof check_context_, "an allreduce larger than a region slot");
  const int big = 40000;
  int* in = malloc(sizeof(int) * (size_t)big);
  int* out = malloc(sizeof(int) * (size_t)big);
  for (int i = 0; i < big; ++i) in[i] = rank + i;
  const unsigned long long shm_before = shm_calls("allreduce");
  CHECK_MPI(MPI_Allreduce(in, out, big, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(shm_calls("allreduce") == shm_before); /* whether forced or not */
  for (int i = 0; i < big; ++i) CHECK(out[i] == size * (size - 1) / 2 + size * i);
  free(in);
  free(out);

  MPI_Op_free(&op);
  for (int k = 0; k < kNumColls; ++k) MPI_T_pvar_handle_free(session, &handles[k]);
  MPI_T_pvar_session_free(&session);
  MPI_T_finalize();
  MPI_Finalize();
  return 0;
}
