/* Soak: 10^6 small messages around a ring and 10^4 communicators created and freed in one job,
 * with the resident memory of every rank measured after a warm-up and at the end. Each rank
 * prints its figures ("soak: rank R rss_kib start S end E"); the job fails if any rank grew by
 * more than kMaxGrowthKib (memory that grows with the number of calls would pass that bound long
 * before the end). Counts can be lowered for quick runs: soak [messages] [communicators]. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

enum { kMaxGrowthKib = 16 * 1024, kWindow = 64 };

/* Resident set size in KiB, from /proc/self/statm (pages). */
static long rss_kib(void) {
  long pages_total = 0, pages_resident = 0;
  FILE* f = fopen("/proc/self/statm", "r");
  if (f == NULL) return -1;
  if (fscanf(f, "%ld %ld", &pages_total, &pages_resident) != 2) pages_resident = -1;
  fclose(f);
  return pages_resident < 0 ? -1 : pages_resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* `count` 8-byte messages to the right neighbour and from the left one, kWindow in flight, each
 * checked; returns how many arrived. */
static long ring_messages(long count, int rank, int size) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  long sent = 0, received = 0;
  long out[kWindow], in[kWindow];
  MPI_Request reqs[2 * kWindow];
  while (received < count) {
    const int n = (int)(count - received < kWindow ? count - received : kWindow);
    for (int i = 0; i < n; ++i) {
      out[i] = sent + i;
      CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_LONG, left, 5, MPI_COMM_WORLD, &reqs[i]));
      CHECK_MPI(MPI_Isend(&out[i], 1, MPI_LONG, right, 5, MPI_COMM_WORLD, &reqs[n + i]));
    }
    CHECK_MPI(MPI_Waitall(2 * n, reqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < n; ++i) CHECK(in[i] == received + i);
    sent += n;
    received += n;
  }
  return received;
}

/* `count` communicators, each duplicated or split from the world, used once and freed. */
static void communicators(long count, int rank) {
  for (long i = 0; i < count; ++i) {
    MPI_Comm c;
    if (i % 2)
      CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    else
      CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c));
    int one = 1, sum = 0, members = 0;
    CHECK_MPI(MPI_Comm_size(c, &members));
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c));
    CHECK(sum == members);
    CHECK_MPI(MPI_Comm_free(&c));
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  const long messages = argc > 1 ? atol(argv[1]) : 1000000;
  const long comms = argc > 2 ? atol(argv[2]) : 10000;

  check_context("warm-up");
  ring_messages(messages / 100 + 1, rank, size);
  communicators(comms / 100 + 1, rank);
  const long start = rss_kib();

  check_context("%ld messages around the ring", messages);
  CHECK(ring_messages(messages, rank, size) == messages);
  check_context("%ld communicators created and freed", comms);
  communicators(comms, rank);
  const long end = rss_kib();

  printf("soak: rank %d rss_kib start %ld end %ld (%ld messages, %ld communicators)\n", rank, start,
         end, messages, comms);
  check_context("resident memory after the soak (start %ld KiB, end %ld KiB)", start, end);
  CHECK(start > 0 && end > 0);
  CHECK(end - start <= kMaxGrowthKib);
  MPI_Finalize();
  return 0;
}
