/* The single-copy collectives (coll/algorithms, the *_single_copy files: addresses posted in the node
 * region, data read from the other ranks' memory), checked by their results and by the MPI_T
 * counters of the algorithm that ran: allreduce, bcast from every root, allgather(v) and
 * reduce_scatter(_block), with MPI_IN_PLACE, lengths from 0 to several cache-sized pieces, blocks
 * of 0 elements, buffers overwritten the moment a call returns (a rank that left while another
 * still read its memory shows as a wrong result), a late rank, nonblocking calls in flight
 * together and a persistent call started more often than the region has lines. Run under
 * WEFT_<COLL>_ALGORITHM=single_copy every call must take it; with argument "off" (under
 * WEFT_SHM_COLL=0) none may. Otherwise (another transport's run of the programs) the counters
 * are not checked. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static MPI_T_pvar_session session;
static const char* const kColls[] = {"bcast", "allreduce", "allgather", "reduce_scatter"};
enum { kNumColls = 4 };
static MPI_T_pvar_handle handles[kNumColls];
static int rank, size, expect_single_copy = -1; /* 1: every call, 0: none, -1: unchecked */

static unsigned long long pvar_value(MPI_T_pvar_handle h) {
  unsigned long long v = 0;
  CHECK(MPI_T_pvar_read(session, h, &v) == MPI_SUCCESS);
  return v;
}

static unsigned long long calls_of(int k) { return pvar_value(handles[k]); }

/* A handle on the MPI_T counter `name`. */
static MPI_T_pvar_handle counter(const char* name) {
  int index = -1, count = 0;
  MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
  CHECK(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_handle_alloc(session, index, NULL, &h, &count) == MPI_SUCCESS);
  return h;
}

/* Runs `body` once and checks that it took the single-copy algorithm of kColls[k] `calls` times
 * (none where the region is off or the job has one rank). */
#define COUNTED(k, calls, body)                                                       \
  do {                                                                                \
    const unsigned long long before_ = calls_of(k);                                   \
    body;                                                                             \
    const unsigned long long want_ = expect_single_copy == 1 && size > 1 ? (calls) : 0; \
    CHECK(expect_single_copy < 0 || calls_of(k) - before_ == want_);                  \
  } while (0)

/* The value rank r contributes at element i in round `round`. */
static int value(int r, long i, int round) { return (int)((r + 1) * 7 + i * 3 + round * 11) % 1000; }

static void check_allreduce(long count, int in_place, int round) {
  int* in = malloc(sizeof(int) * (size_t)(count + 1));
  int* out = malloc(sizeof(int) * (size_t)(count + 1));
  for (long i = 0; i < count; ++i) (in_place ? out : in)[i] = value(rank, i, round);
  COUNTED(1, 1, CHECK_MPI(MPI_Allreduce(in_place ? MPI_IN_PLACE : in, out, (int)count, MPI_INT,
                                        MPI_SUM, MPI_COMM_WORLD)));
  for (long i = 0; i < count; ++i) {
    long want = 0;
    for (int r = 0; r < size; ++r) want += value(r, i, round);
    CHECK(out[i] == want);
  }
  memset(in, 0xab, sizeof(int) * (size_t)count); /* at once: nobody may still read them */
  memset(out, 0xcd, sizeof(int) * (size_t)count);
  free(in);
  free(out);
}

static void check_bcast(long count, int root, int round) {
  double* buf = malloc(sizeof(double) * (size_t)(count + 1));
  for (long i = 0; i < count; ++i) buf[i] = rank == root ? value(root, i, round) : -1;
  COUNTED(0, 1, CHECK_MPI(MPI_Bcast(buf, (int)count, MPI_DOUBLE, root, MPI_COMM_WORLD)));
  for (long i = 0; i < count; ++i) CHECK(buf[i] == value(root, i, round));
  memset(buf, 0xab, sizeof(double) * (size_t)count);
  free(buf);
}

/* Rank r's block has counts[r] elements; `uneven` gives some ranks none. */
static void block_counts(long base, int uneven, int* counts, int* displs) {
  for (int r = 0; r < size; ++r) {
    counts[r] = (int)(uneven ? (r % 3 == 1 ? 0 : base + r) : base);
    displs[r] = r == 0 ? 0 : displs[r - 1] + counts[r - 1];
  }
}

static void check_allgather(long base, int uneven, int in_place, int round) {
  int counts[64], displs[64];
  block_counts(base, uneven, counts, displs);
  const long total = displs[size - 1] + counts[size - 1];
  int* mine = malloc(sizeof(int) * (size_t)(counts[rank] + 1));
  int* all = malloc(sizeof(int) * (size_t)(total + 1));
  for (long i = 0; i < total; ++i) all[i] = -1;
  for (int i = 0; i < counts[rank]; ++i)
    (in_place ? all + displs[rank] : mine)[i] = value(rank, i, round);
  const void* send = in_place ? MPI_IN_PLACE : mine;
  if (uneven) {
    COUNTED(2, 1, CHECK_MPI(MPI_Allgatherv(send, counts[rank], MPI_INT, all, counts, displs,
                                           MPI_INT, MPI_COMM_WORLD)));
  } else {
    COUNTED(2, 1, CHECK_MPI(MPI_Allgather(send, (int)base, MPI_INT, all, (int)base, MPI_INT,
                                          MPI_COMM_WORLD)));
  }
  for (int r = 0; r < size; ++r)
    for (int i = 0; i < counts[r]; ++i) CHECK(all[displs[r] + i] == value(r, i, round));
  memset(mine, 0xab, sizeof(int) * (size_t)counts[rank]);
  memset(all, 0xcd, sizeof(int) * (size_t)total);
  free(mine);
  free(all);
}

static void check_reduce_scatter(long base, int uneven, int in_place, int round) {
  int counts[64], displs[64];
  block_counts(base, uneven, counts, displs);
  const long total = displs[size - 1] + counts[size - 1];
  int* in = malloc(sizeof(int) * (size_t)(total + 1));
  int* out = malloc(sizeof(int) * (size_t)(total + 1));
  for (long i = 0; i < total; ++i) (in_place ? out : in)[i] = value(rank, i, round);
  const void* send = in_place ? MPI_IN_PLACE : in;
  if (uneven) {
    COUNTED(3, 1, CHECK_MPI(MPI_Reduce_scatter(send, out, counts, MPI_INT, MPI_SUM,
                                               MPI_COMM_WORLD)));
  } else {
    COUNTED(3, 1, CHECK_MPI(MPI_Reduce_scatter_block(send, out, (int)base, MPI_INT, MPI_SUM,
                                                     MPI_COMM_WORLD)));
  }
  for (int i = 0; i < counts[rank]; ++i) {
    long want = 0;
    for (int r = 0; r < size; ++r) want += value(r, displs[rank] + i, round);
    CHECK(out[i] == want);
  }
  memset(in, 0xab, sizeof(int) * (size_t)total);
  memset(out, 0xcd, sizeof(int) * (size_t)total);
  free(in);
  free(out);
}

/* Shared reads (WEFT_SHM_COLL_SHARED_READ_MIN): broadcasts of 1 MiB from every root, a reader
 * late now and then so that the root waits, and every byte is copied exactly once, by its
 * reader or by the root: over all ranks, the bytes read from posts by reference and those
 * written into readers' buffers add up to (size - 1) x 1 MiB per broadcast. With
 * `shared_off` the root writes none. */
static void check_shared_reads(MPI_T_pvar_handle read, MPI_T_pvar_handle written, int shared_off) {
  enum { kCount = 1 << 17, kCalls = 6 };
  const unsigned long long read_before = pvar_value(read), written_before = pvar_value(written);
  for (int k = 0; k < kCalls; ++k) {
    const int root = k % size;
    if (rank == (root + 1) % size && k % 2 == 1) usleep(2000);
    check_bcast(kCount, root, 1000 + k);
  }
  unsigned long long moved[2] = {pvar_value(read) - read_before,
                                 pvar_value(written) - written_before};
  CHECK(!shared_off || moved[1] == 0);
  CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, moved, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                          MPI_COMM_WORLD));
  CHECK(moved[0] + moved[1] == (unsigned long long)kCalls * (unsigned long long)(size - 1) *
                                   kCount * sizeof(double));
  if (rank == 0)
    printf("shared reads: %llu bytes read, %llu written by roots\n", moved[0], moved[1]);
}

/* Three allreduces in flight at once, then a persistent one started 70 times (more than the 64
 * lines in which a rank posts; each run posts twice). */
static void check_nonblocking_and_persistent(void) {
  enum { kCount = 50000 };
  int* in = malloc(sizeof(int) * 3 * kCount);
  int* out = malloc(sizeof(int) * 3 * kCount);
  MPI_Request requests[3];
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < kCount; ++i) in[k * kCount + i] = value(rank, i, k);
  COUNTED(1, 3, {
    for (int k = 0; k < 3; ++k)
      CHECK_MPI(MPI_Iallreduce(in + k * kCount, out + k * kCount, kCount, MPI_INT, MPI_SUM,
                               MPI_COMM_WORLD, &requests[k]));
    CHECK_MPI(MPI_Waitall(3, requests, MPI_STATUSES_IGNORE));
  });
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < kCount; ++i) {
      long want = 0;
      for (int r = 0; r < size; ++r) want += value(r, i, k);
      CHECK(out[k * kCount + i] == want);
    }
  }
  MPI_Request persistent;
  CHECK_MPI(MPI_Allreduce_init(in, out, kCount, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &persistent));
  for (int run = 0; run < 70; ++run) {
    for (int i = 0; i < kCount; i += 997) in[i] = value(rank, i, run);
    COUNTED(1, 1, {
      CHECK_MPI(MPI_Start(&persistent));
      CHECK_MPI(MPI_Wait(&persistent, MPI_STATUS_IGNORE));
    });
    for (int i = 0; i < kCount; i += 997) {
      long want = 0;
      for (int r = 0; r < size; ++r) want += value(r, i, run);
      CHECK(out[i] == want);
    }
  }
  CHECK_MPI(MPI_Request_free(&persistent));
  free(in);
  free(out);
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const char* forced = getenv("WEFT_ALLREDUCE_ALGORITHM");
  const char* shm = getenv("WEFT_SHM");
  if (argc > 1 && strcmp(argv[1], "off") == 0) {
    expect_single_copy = 0;
  } else if (forced != NULL && strcmp(forced, "single_copy") == 0 &&
             !(shm != NULL && strcmp(shm, "0") == 0)) {
    expect_single_copy = 1;
  }
  CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS);
  CHECK(MPI_T_pvar_session_create(&session) == MPI_SUCCESS);
  for (int k = 0; k < kNumColls; ++k) {
    char name[64];
    snprintf(name, sizeof name, "coll_%s_single_copy_calls", kColls[k]);
    handles[k] = counter(name);
  }
  /* The region is claimed at the first blocking collective; from then on every call counts. */
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* 0 elements to several pieces of 256 KiB / (size - 1), odd lengths included. */
  const long lengths[] = {0, 1, 5, 1000, 65537, 300001};
  int round = 0;
  for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; ++l) {
    const long n = lengths[l];
    snprintf(check_context_, sizeof check_context_, "%ld elements", n);
    for (int in_place = 0; in_place < 2; ++in_place) check_allreduce(n, in_place, ++round);
    for (int root = 0; root < size; ++root) check_bcast(n, root, ++round);
    const long block = n / (size > 0 ? size : 1);
    for (int uneven = 0; uneven < 2; ++uneven) {
      for (int in_place = 0; in_place < 2; ++in_place) {
        check_allgather(block, uneven, in_place, ++round);
        check_reduce_scatter(block, uneven, in_place, ++round);
      }
    }
  }
  snprintf(check_context_, sizeof check_context_, "a late rank 0");
  if (rank == 0) usleep(20000);
  check_allreduce(200000, 0, ++round);
  snprintf(check_context_, sizeof check_context_, "the same call many times in a row");
  for (int k = 0; k < 40; ++k) check_allreduce(70000, k % 2, ++round);
  snprintf(check_context_, sizeof check_context_, "nonblocking and persistent allreduce");
  check_nonblocking_and_persistent();

  if (expect_single_copy == 1 && size > 1) {
    snprintf(check_context_, sizeof check_context_, "shared reads");
    MPI_T_pvar_handle read = counter("coll_reference_bytes_read");
    MPI_T_pvar_handle written = counter("coll_reference_bytes_written");
    const char* shared_min = getenv("WEFT_SHM_COLL_SHARED_READ_MIN");
    check_shared_reads(read, written, shared_min != NULL && strcmp(shared_min, "0") == 0);
    MPI_T_pvar_handle_free(session, &read);
    MPI_T_pvar_handle_free(session, &written);
  }

  for (int k = 0; k < kNumColls; ++k) MPI_T_pvar_handle_free(session, &handles[k]);
  MPI_T_pvar_session_free(&session);
  MPI_T_finalize();
  MPI_Finalize();
  return 0;
}
