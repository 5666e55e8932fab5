/* Shared by the MPI_THREAD_MULTIPLE programs (threads_*.c): start MPI at that level and run a
 * function on several threads at once. Threads call CHECK (which reads, never writes, the
 * context text: only the main thread sets it, before the threads start). */
#ifndef WEFT_TESTS_THREADS_H
#define WEFT_TESTS_THREADS_H
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

enum { kMaxThreads = 8, kMaxRanks = 64 };

/* Threads per rank: WEFT_TEST_THREADS (2..8), 3 by default. */
static inline int thread_count(void) {
  const char* text = getenv("WEFT_TEST_THREADS");
  int n = text != NULL ? atoi(text) : 3;
  return n < 2 ? 2 : n > kMaxThreads ? kMaxThreads : n;
}

/* MPI_Init_thread at MPI_THREAD_MULTIPLE (which must be provided), MPI_ERRORS_RETURN on the
 * predefined communicators, and this rank's place in the world ring (left/right may be NULL);
 * the programs' per-rank arrays hold kMaxRanks. */
static inline void init_multiple(int* argc, char*** argv, int* rank, int* size, int* left,
                                 int* right) {
  int provided = -1;
  MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
  CHECK(provided == MPI_THREAD_MULTIPLE);
  errors_return();
  world_ring(rank, size, left, right);
  CHECK(*size <= kMaxRanks);
}

/* Runs fn(0) .. fn(n-1) on n threads (kMaxThreads + 1 at most) at once and waits for them all. */
static inline void run_threads(int n, void* (*fn)(void*)) {
  pthread_t threads[kMaxThreads + 1];
  CHECK(n <= kMaxThreads + 1);
  for (int t = 0; t < n; ++t)
    CHECK(pthread_create(&threads[t], NULL, fn, (void*)(intptr_t)t) == 0);
  for (int t = 0; t < n; ++t) CHECK(pthread_join(threads[t], NULL) == 0);
}

#endif
