/* Passive target: a shared counter on rank 0 reaches exactly size x K through MPI_Fetch_and_op
 * under shared locks (accumulates are atomic with respect to each other); exclusive locks make
 * a get-increment-put sequence atomic; a compare-and-swap spin lock guards a critical section;
 * lock_all/flush; and a target that computes without calling MPI does not hold its origins up. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"

enum { K = 200 };

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int pass = 0; pass < 2; ++pass) {
    /* Pass 0: MPI_Win_allocate (load/store); pass 1: MPI_Win_create on the caller's memory
     * (another process's memory is reached without its help there too). */
    long long* mem = NULL;
    MPI_Win win;
    /* 0: counter (fetch_and_op), 1: counter (exclusive get/put), 2: CAS lock, 3: protected sum,
     * 4..: one slot per rank written while the target computes */
    const int slots = 4 + size;
    const MPI_Aint bytes = slots * (MPI_Aint)sizeof(long long);
    if (pass == 0) {
      CHECK_MPI(
          MPI_Win_allocate(bytes, sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    } else {
      mem = malloc((size_t)bytes);
      CHECK_MPI(MPI_Win_create(mem, bytes, sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    }
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    for (int i = 0; i < slots; ++i) mem[i] = 0;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    check_context("pass %d: fetch_and_op counter", pass);
    const long long one = 1;
    long long seen_max = -1;
    for (int k = 0; k < K; ++k) {
      long long old = -1;
      CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
      CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG_LONG, 0, 0, MPI_SUM, win));
      CHECK_MPI(MPI_Win_unlock(0, win));
      CHECK(old > seen_max && old < (long long)size * K);
      seen_max = old;
    }

    check_context("pass %d: exclusive get-increment-put", pass);
    for (int k = 0; k < K / 4; ++k) {
      long long v = 0;
      CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
      CHECK_MPI(MPI_Get(&v, 1, MPI_LONG_LONG, 0, 1, 1, MPI_LONG_LONG, win));
      CHECK_MPI(MPI_Win_flush(0, win));
      ++v;
      CHECK_MPI(MPI_Put(&v, 1, MPI_LONG_LONG, 0, 1, 1, MPI_LONG_LONG, win));
      CHECK_MPI(MPI_Win_unlock(0, win));
    }

    check_context("pass %d: compare-and-swap spin lock", pass);
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int k = 0; k < K / 4; ++k) {
      const long long mine = rank + 1, free_ = 0;
      long long got = -1;
      do {
        CHECK_MPI(MPI_Compare_and_swap(&mine, &free_, &got, MPI_LONG_LONG, 0, 2, win));
      } while (got != 0);
      long long v = 0;
      CHECK_MPI(MPI_Get(&v, 1, MPI_LONG_LONG, 0, 3, 1, MPI_LONG_LONG, win));
      CHECK_MPI(MPI_Win_flush(0, win));
      v += 2;
      CHECK_MPI(MPI_Put(&v, 1, MPI_LONG_LONG, 0, 3, 1, MPI_LONG_LONG, win));
      CHECK_MPI(MPI_Win_flush_all(win));
      long long released = -1;
      CHECK_MPI(MPI_Compare_and_swap(&free_, &mine, &released, MPI_LONG_LONG, 0, 2, win));
      CHECK(released == mine);
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
      CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
      CHECK(mem[0] == (long long)size * K);
      CHECK(mem[1] == (long long)size * (K / 4));
      CHECK(mem[2] == 0);
      CHECK(mem[3] == 2LL * size * (K / 4));
      CHECK_MPI(MPI_Win_unlock(0, win));
    }

    /* The last rank computes for a while without any MPI call; the others lock it, put their
     * slot and unlock, each within a small part of that time, then tell it by message. */
    check_context("pass %d: target computing outside MPI", pass);
    const int target = size - 1;
    const double compute_s = 0.6;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == target) {
      const double start = now();
      volatile double x = 0;
      while (now() - start < compute_s) x += 1.0;
      for (int r = 0; r < size - 1; ++r) {
        double took = -1;
        CHECK_MPI(
            MPI_Recv(&took, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(took >= 0);
        CHECK(took < compute_s / 2);
      }
      CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
      for (int r = 0; r < size - 1; ++r) CHECK(mem[4 + r] == 1000 + r);
      CHECK_MPI(MPI_Win_unlock(target, win));
    } else {
      const double start = now();
      const long long v = 1000 + rank;
      CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
      CHECK_MPI(MPI_Put(&v, 1, MPI_LONG_LONG, target, 4 + rank, 1, MPI_LONG_LONG, win));
      CHECK_MPI(MPI_Win_unlock(target, win));
      const double took = now() - start;
      CHECK_MPI(MPI_Send(&took, 1, MPI_DOUBLE, target, 9, MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Win_free(&win));
    if (pass == 1) free(mem);
  }
  MPI_Finalize();
  if (rank == 0) printf("rma_passive: ok\n");
  return 0;
}
