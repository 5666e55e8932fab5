/* MPI_THREAD_MULTIPLE point-to-point: several threads per rank send and receive at once, each
 * with its own tag and MPI_ANY_SOURCE receives; messages of one thread to one destination arrive
 * in the order sent even when every thread shares one tag; and a thread blocked in MPI_Recv does
 * not stop another thread of its process from sending and completing other traffic. */
#include "threads.h"

enum { kPerPeer = 40, kShared = 60, kRounds = 30 };

static int g_rank, g_size, g_threads, g_left, g_right;

/* Thread t sends kPerPeer numbered messages to every rank (itself included) on tag t, half of
 * them blocking, and receives them all with MPI_ANY_SOURCE: each source's arrive in order. */
static void* own_tags(void* arg) {
  const int t = (int)(intptr_t)arg;
  MPI_Request sends[kPerPeer * kMaxRanks];
  int out[kPerPeer];
  for (int i = 0; i < kPerPeer; ++i) out[i] = i;
  int n = 0;
  for (int i = 0; i < kPerPeer; ++i)
    for (int dest = 0; dest < g_size; ++dest)
      CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, dest, t, MPI_COMM_WORLD, &sends[n++]));
  int next[kMaxRanks] = {0};
  for (int k = 0; k < kPerPeer * g_size; ++k) {
    int v = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, t, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_TAG == t && st.MPI_SOURCE >= 0 && st.MPI_SOURCE < g_size);
    CHECK(v == next[st.MPI_SOURCE]);
    ++next[st.MPI_SOURCE];
  }
  CHECK_MPI(MPI_Waitall(n, sends, MPI_STATUSES_IGNORE));
  return NULL;
}

/* Every thread sends kShared messages to the right on tag 99; one extra thread per rank receives
 * them all from the left with MPI_ANY_SOURCE and MPI_ANY_TAG: per sending thread, in order. */
static void* shared_tag(void* arg) {
  const int t = (int)(intptr_t)arg;
  if (t == g_threads) {
    int next[kMaxThreads] = {0};
    for (int k = 0; k < kShared * g_threads; ++k) {
      int v = -1;
      MPI_Status st;
      CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
      CHECK(st.MPI_SOURCE == g_left && st.MPI_TAG == 99);
      const int sender = v / 1000, seq = v % 1000;
      CHECK(sender >= 0 && sender < g_threads && seq == next[sender]);
      ++next[sender];
    }
    return NULL;
  }
  for (int i = 0; i < kShared; ++i) {
    int v = t * 1000 + i;
    if (i % 3 == 0) {
      CHECK_MPI(MPI_Ssend(&v, 1, MPI_INT, g_right, 99, MPI_COMM_WORLD));
    } else {
      CHECK_MPI(MPI_Send(&v, 1, MPI_INT, g_right, 99, MPI_COMM_WORLD));
    }
  }
  return NULL;
}

/* Thread 0 blocks in MPI_Recv for a message the right neighbour's thread 1 sends only after
 * kRounds ring exchanges with the other ranks' threads 1 (which need this rank's thread 1 to
 * send while thread 0 is blocked). Other threads do nothing. */
static void* blocked_recv(void* arg) {
  const int t = (int)(intptr_t)arg;
  if (t == 0) {
    int v = -1;
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, g_left, 500, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(v == 500 + g_left);
  } else if (t == 1) {
    for (int i = 0; i < kRounds; ++i) {
      int out = g_rank * 100 + i, in = -1;
      CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, g_right, 501, &in, 1, MPI_INT, g_left, 501,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CHECK(in == g_left * 100 + i);
    }
    int v = 500 + g_rank;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, g_right, 500, MPI_COMM_WORLD));
  }
  return NULL;
}

int main(int argc, char** argv) {
  init_multiple(&argc, &argv, &g_rank, &g_size, &g_left, &g_right);
  g_threads = thread_count();
  check_context("threads with their own tags, MPI_ANY_SOURCE receives");
  run_threads(g_threads, own_tags);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  check_context("per-thread order of messages on one tag");
  run_threads(g_threads + 1, shared_tag);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* phase 3's tags must not meet phase 2's MPI_ANY_TAG */
  check_context("a thread blocked in MPI_Recv while another sends");
  run_threads(g_threads, blocked_recv);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (g_rank == 0) printf("threads_pt2pt: ok (%d ranks, %d threads)\n", g_size, g_threads);
  MPI_Finalize();
  return 0;
}
