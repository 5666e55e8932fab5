/* One-sided benchmark in plain MPI (builds with any MPI), in the manner of the OSU one-sided
 * tests, on 2 ranks: rank 0 is the origin, rank 1 the target of a window made by
 * MPI_Win_allocate. Measures, per size:
 *   put_lat / get_lat  lock_all once, then (put|get + MPI_Win_flush) per iteration (us)
 *   put_bw             lock_all once, then 64 puts + one flush per iteration (MB/s)
 *   fop_lat            MPI_Fetch_and_op(MPI_SUM, MPI_LONG_LONG) + flush (us)
 *   cas_lat            MPI_Compare_and_swap(MPI_LONG_LONG) + flush (us)
 *   lock_lat           lock(exclusive) + put + unlock per iteration (us)
 *   fence_lat          put + MPI_Win_fence on both ranks per iteration (us)
 * Output: "measure bytes value" lines. Usage: rma_bench [-m max_bytes] [-i iters]. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kWindow = 64, kSizes = 7 };
static const size_t kSize[kSizes] = {8, 64, 1024, 16384, 65536, 1048576, 4194304};

static int iters_for(size_t bytes, int base) {
  if (bytes >= (1u << 20)) return base / 50 > 10 ? base / 50 : 10;
  if (bytes >= (64u << 10)) return base / 10;
  return base;
}

/* Each measurement: warm-up, then the timed loop on rank 0; rank 1 waits in a barrier. */
static double put_get_latency(int rank, MPI_Win win, char* buf, size_t bytes, int iters, int get) {
  double t = 0;
  if (rank == 0) {
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < iters + 10; ++i) {
      if (i == 10) t = MPI_Wtime();
      if (get) {
        MPI_Get(buf, (int)bytes, MPI_CHAR, 1, 0, (int)bytes, MPI_CHAR, win);
      } else {
        MPI_Put(buf, (int)bytes, MPI_CHAR, 1, 0, (int)bytes, MPI_CHAR, win);
      }
      MPI_Win_flush(1, win);
    }
    t = (MPI_Wtime() - t) * 1e6 / iters;
    MPI_Win_unlock_all(win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return t;
}

static double put_bandwidth(int rank, MPI_Win win, char* buf, size_t bytes, int iters) {
  double t = 0;
  if (rank == 0) {
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < iters + 2; ++i) {
      if (i == 2) t = MPI_Wtime();
      for (int k = 0; k < kWindow; ++k)
        MPI_Put(buf, (int)bytes, MPI_CHAR, 1, 0, (int)bytes, MPI_CHAR, win);
      MPI_Win_flush(1, win);
    }
    t = MPI_Wtime() - t;
    MPI_Win_unlock_all(win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return rank == 0 ? (double)bytes * kWindow * iters / t / 1e6 : 0;
}

static double atomic_latency(int rank, MPI_Win win, int iters, int cas) {
  double t = 0;
  long long one = 1, cmp = 0, result = 0;
  if (rank == 0) {
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < iters + 10; ++i) {
      if (i == 10) t = MPI_Wtime();
      if (cas) {
        MPI_Compare_and_swap(&one, &cmp, &result, MPI_LONG_LONG, 1, 0, win);
      } else {
        MPI_Fetch_and_op(&one, &result, MPI_LONG_LONG, 1, 0, MPI_SUM, win);
      }
      MPI_Win_flush(1, win);
    }
    t = (MPI_Wtime() - t) * 1e6 / iters;
    MPI_Win_unlock_all(win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return t;
}

static double lock_latency(int rank, MPI_Win win, char* buf, int iters) {
  double t = 0;
  if (rank == 0) {
    for (int i = 0; i < iters + 10; ++i) {
      if (i == 10) t = MPI_Wtime();
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
      MPI_Put(buf, 8, MPI_CHAR, 1, 0, 8, MPI_CHAR, win);
      MPI_Win_unlock(1, win);
    }
    t = (MPI_Wtime() - t) * 1e6 / iters;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return t;
}

static double fence_latency(int rank, MPI_Win win, char* buf, int iters) {
  double t = 0;
  MPI_Win_fence(0, win);
  for (int i = 0; i < iters + 10; ++i) {
    if (i == 10) t = MPI_Wtime();
    if (rank == 0) MPI_Put(buf, 8, MPI_CHAR, 1, 0, 8, MPI_CHAR, win);
    MPI_Win_fence(0, win);
  }
  t = (MPI_Wtime() - t) * 1e6 / iters;
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  return t;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  size_t max_bytes = 4u << 20;
  int iters = 10000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "-m") == 0) max_bytes = (size_t)atoll(argv[i + 1]);
    if (strcmp(argv[i], "-i") == 0) iters = atoi(argv[i + 1]);
  }
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "rma_bench: run on exactly 2 ranks\n");
    MPI_Finalize();
    return 1;
  }
  char* buf = malloc(max_bytes);
  memset(buf, 1, max_bytes);
  char* base = NULL;
  MPI_Win win;
  MPI_Win_allocate((MPI_Aint)max_bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  if (rank == 0) printf("# measure bytes value (us, or MB/s for put_bw)\n");
  for (int k = 0; k < kSizes && kSize[k] <= max_bytes; ++k) {
    const size_t bytes = kSize[k];
    const int n = iters_for(bytes, iters);
    const double put = put_get_latency(rank, win, buf, bytes, n, 0);
    const double get = put_get_latency(rank, win, buf, bytes, n, 1);
    if (rank == 0) printf("put_lat %zu %.3f\nget_lat %zu %.3f\n", bytes, put, bytes, get);
  }
  for (int k = 0; k < kSizes && kSize[k] <= max_bytes; ++k) {
    const size_t bytes = kSize[k];
    const double bw = put_bandwidth(rank, win, buf, bytes, iters_for(bytes, iters) / 16 + 2);
    if (rank == 0) printf("put_bw %zu %.1f\n", bytes, bw);
  }
  const double fop = atomic_latency(rank, win, iters, 0);
  const double cas = atomic_latency(rank, win, iters, 1);
  const double lock = lock_latency(rank, win, buf, iters);
  const double fence = fence_latency(rank, win, buf, iters / 4);
  if (rank == 0)
    printf("fop_lat 8 %.3f\ncas_lat 8 %.3f\nlock_lat 8 %.3f\nfence_lat 8 %.3f\n", fop, cas, lock,
           fence);
  MPI_Win_free(&win);
  free(buf);
  MPI_Finalize();
  return 0;
}
