/* MPI_THREAD_MULTIPLE collectives: each thread runs blocking and nonblocking collectives on a
 * communicator of its own while the other threads run theirs, then duplicates its communicator
 * (every thread at once: their context ids must not collide) and uses the duplicate. */
#include "threads.h"

enum { kRounds = 15 };

static int g_rank, g_size;
static MPI_Comm g_comms[kMaxThreads];

static void rounds_on(MPI_Comm comm, int t) {
  int gathered[kMaxRanks];
  for (int i = 0; i < kRounds; ++i) {
    int mine = g_rank + t + i, sum = -1;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK(sum == g_size * (g_size - 1) / 2 + g_size * (t + i));
    const int root = i % g_size;
    int value = g_rank == root ? 1000 * t + i : -1;
    CHECK_MPI(MPI_Bcast(&value, 1, MPI_INT, root, comm));
    CHECK(value == 1000 * t + i);
    CHECK_MPI(MPI_Allgather(&mine, 1, MPI_INT, gathered, 1, MPI_INT, comm));
    for (int r = 0; r < g_size; ++r) CHECK(gathered[r] == r + t + i);
    MPI_Request barrier;
    CHECK_MPI(MPI_Ibarrier(comm, &barrier));
    CHECK_MPI(MPI_Wait(&barrier, MPI_STATUS_IGNORE));
    MPI_Request reduce;
    int max = -1;
    CHECK_MPI(MPI_Iallreduce(&mine, &max, 1, MPI_INT, MPI_MAX, comm, &reduce));
    CHECK_MPI(MPI_Wait(&reduce, MPI_STATUS_IGNORE));
    CHECK(max == g_size - 1 + t + i);
  }
}

static void* per_thread(void* arg) {
  const int t = (int)(intptr_t)arg;
  rounds_on(g_comms[t], t);
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(g_comms[t], &dup));
  rounds_on(dup, t);
  CHECK_MPI(MPI_Barrier(dup));
  CHECK_MPI(MPI_Comm_free(&dup));
  return NULL;
}

int main(int argc, char** argv) {
  init_multiple(&argc, &argv, &g_rank, &g_size, NULL, NULL);
  const int threads = thread_count();
  for (int t = 0; t < threads; ++t) {
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &g_comms[t]));
    MPI_Comm_set_errhandler(g_comms[t], MPI_ERRORS_RETURN);
  }
  check_context("collectives on one communicator per thread, at once");
  run_threads(threads, per_thread);
  for (int t = 0; t < threads; ++t) CHECK_MPI(MPI_Comm_free(&g_comms[t]));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (g_rank == 0) printf("threads_coll: ok (%d ranks, %d threads)\n", g_size, threads);
  MPI_Finalize();
  return 0;
}
