/* MPI_THREAD_MULTIPLE intercommunicator creation: every thread of every rank, at once and for
 * many rounds, splits its own duplicate of MPI_COMM_WORLD into the two groups of inter_common.h,
 * joins them with MPI_Intercomm_create, duplicates its own copy of a shared intercommunicator and
 * merges the result; traffic tagged with the thread and round on each new communicator shows
 * that no two threads got the same context ids. */
#include "inter_common.h"
#include "threads.h"

enum { kRounds = 12 };

static int g_rank, g_size;
static MPI_Comm g_comms[kMaxThreads], g_inters[kMaxThreads];

/* Each rank sends `mark` to every remote rank and checks what the remote ranks sent; then an
 * allreduce of the marks. */
static void traffic(MPI_Comm inter, int mark) {
  int remote = 0;
  CHECK_MPI(MPI_Comm_remote_size(inter, &remote));
  int got[kMaxRanks];
  MPI_Request reqs[128];
  for (int r = 0; r < remote; ++r) {
    CHECK_MPI(MPI_Irecv(&got[r], 1, MPI_INT, r, 3, inter, &reqs[r]));
    CHECK_MPI(MPI_Isend(&mark, 1, MPI_INT, r, 3, inter, &reqs[remote + r]));
  }
  CHECK_MPI(MPI_Waitall(2 * remote, reqs, MPI_STATUSES_IGNORE));
  for (int r = 0; r < remote; ++r) CHECK(got[r] == mark);
  int sum = -1;
  CHECK_MPI(MPI_Allreduce(&mark, &sum, 1, MPI_INT, MPI_SUM, inter));
  CHECK(sum == remote * mark);
}

static void* per_thread(void* arg) {
  const int t = (int)(intptr_t)arg;
  const int in_a = inter_in_a(g_rank);
  const int remote_leader = inter_world_of(!in_a, 0, g_size);
  for (int round = 0; round < kRounds; ++round) {
    const int mark = 1000 * t + round;
    MPI_Comm local, made, dup, merged;
    CHECK_MPI(MPI_Comm_split(g_comms[t], in_a, g_rank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, g_comms[t], remote_leader, 40 + t, &made));
    CHECK_MPI(MPI_Comm_dup(g_inters[t], &dup));
    traffic(made, mark);
    traffic(dup, mark + 500);
    CHECK_MPI(MPI_Intercomm_merge(made, in_a, &merged));
    int sum = -1;
    CHECK_MPI(MPI_Allreduce(&mark, &sum, 1, MPI_INT, MPI_SUM, merged));
    CHECK(sum == g_size * mark);
    CHECK_MPI(MPI_Comm_free(&merged));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Comm_free(&made));
    CHECK_MPI(MPI_Comm_free(&local));
  }
  return NULL;
}

int main(int argc, char** argv) {
  init_multiple(&argc, &argv, &g_rank, &g_size, NULL, NULL);
  if (g_size < 2) {
    MPI_Finalize();
    return 0;
  }
  int in_a;
  MPI_Comm local, shared;
  inter_make(0, &in_a, &local, &shared);
  const int threads = thread_count();
  for (int t = 0; t < threads; ++t) {
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &g_comms[t]));
    CHECK_MPI(MPI_Comm_set_errhandler(g_comms[t], MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_dup(shared, &g_inters[t]));
    CHECK_MPI(MPI_Comm_set_errhandler(g_inters[t], MPI_ERRORS_RETURN));
  }
  check_context("intercommunicators created by every thread at once");
  run_threads(threads, per_thread);
  for (int t = 0; t < threads; ++t) {
    CHECK_MPI(MPI_Comm_free(&g_inters[t]));
    CHECK_MPI(MPI_Comm_free(&g_comms[t]));
  }
  CHECK_MPI(MPI_Comm_free(&shared));
  CHECK_MPI(MPI_Comm_free(&local));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (g_rank == 0) printf("threads_inter: ok (%d ranks, %d threads)\n", g_size, threads);
  MPI_Finalize();
  return 0;
}
