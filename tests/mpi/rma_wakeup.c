/* A target that waits in MPI_Barrier must notice lock, put and unlock requests as they arrive,
 * not when its wait times out: every other rank takes the last rank's lock, puts and unlocks 200
 * times, and each round must end within 0.5 s. Registered with WEFT_POLL_MS=2000, so that a
 * missed wake-up (a request that reached the target without waking it) fails the check instead
 * of costing a short timeout; before the fix of that over libfabric, about 1 round in 100 waited
 * for the timeout. The puts are then checked at the target. */
#include <stdio.h>

#include "check.h"

enum { kRounds = 200 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int target = size - 1;
  long long* mem = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(size * (MPI_Aint)sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &mem, &win));
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  for (int i = 0; i < size; ++i) mem[i] = -1;
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  check_context("rank %d locking rank %d while it waits in MPI_Barrier", rank, target);
  if (rank != target) {
    double slowest = 0;
    for (long long k = 0; k < kRounds; ++k) {
      const double start = MPI_Wtime();
      CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
      CHECK_MPI(MPI_Put(&k, 1, MPI_LONG_LONG, target, rank, 1, MPI_LONG_LONG, win));
      CHECK_MPI(MPI_Win_unlock(target, win));
      const double took = MPI_Wtime() - start;
      if (took > slowest) slowest = took;
    }
    if (slowest >= 0.5) fprintf(stderr, "rank %d: slowest round %.3f s\n", rank, slowest);
    CHECK(slowest < 0.5);
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == target) {
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
    for (int r = 0; r < size - 1; ++r) CHECK(mem[r] == kRounds - 1);
    CHECK_MPI(MPI_Win_unlock(target, win));
  }
  CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  if (rank == 0) printf("rma_wakeup: ok\n");
  return 0;
}
