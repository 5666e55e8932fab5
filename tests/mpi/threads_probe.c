/* MPI_THREAD_MULTIPLE probes and hand-offs: several threads take messages of one tag with
 * MPI_Mprobe/MPI_Improbe and receive them with MPI_Mrecv/MPI_Imrecv (each message exactly once,
 * whichever thread took it); threads probe their own tags with MPI_Probe and receive what they
 * found; and a thread waits on a request another thread started. */
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "threads.h"

enum { kPerPeer = 30, kProbed = 10 };

static int g_rank, g_size;
static atomic_int g_claimed;
static atomic_int g_seen[kMaxRanks][kPerPeer];

/* Takes messages of tag 7 from anyone until all size * kPerPeer are claimed: each thread
 * claims one before probing for it, so no thread waits for a message that never comes. */
static void* matched(void* arg) {
  const int t = (int)(intptr_t)arg;
  for (int k = 0;; ++k) {
    if (atomic_fetch_add(&g_claimed, 1) >= g_size * kPerPeer) break;
    MPI_Message message;
    MPI_Status st;
    int v = -1;
    if ((t + k) % 2 == 0) {
      CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &message, &st));
      CHECK_MPI(MPI_Mrecv(&v, 1, MPI_INT, &message, MPI_STATUS_IGNORE));
    } else {
      int flag = 0;
      while (!flag) CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag, &message, &st));
      MPI_Request r;
      CHECK_MPI(MPI_Imrecv(&v, 1, MPI_INT, &message, &r));
      CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    CHECK(message == MPI_MESSAGE_NULL);
    const int source = v / 1000, seq = v % 1000;
    CHECK(source == st.MPI_SOURCE && seq >= 0 && seq < kPerPeer);
    CHECK(atomic_fetch_add(&g_seen[source][seq], 1) == 0); /* nobody else received it */
  }
  return NULL;
}

/* Thread t probes for messages of its own tag (100 + t, of varying length) and receives each
 * one it found from the source and with the length the probe reported. */
static void* probed(void* arg) {
  const int t = (int)(intptr_t)arg;
  int buf[kProbed + 1];
  int out[kProbed + 1];
  for (int i = 0; i <= kProbed; ++i) out[i] = g_rank * 100 + i;
  MPI_Request sends[kMaxRanks * kProbed];
  int n = 0;
  for (int dest = 0; dest < g_size; ++dest)
    for (int i = 1; i <= kProbed; ++i)
      CHECK_MPI(MPI_Isend(out, i, MPI_INT, dest, 100 + t, MPI_COMM_WORLD, &sends[n++]));
  int next[kMaxRanks];
  for (int r = 0; r < g_size; ++r) next[r] = 1;
  for (int k = 0; k < g_size * kProbed; ++k) {
    MPI_Status st;
    CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, 100 + t, MPI_COMM_WORLD, &st));
    int count = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == next[st.MPI_SOURCE]);
    CHECK_MPI(MPI_Recv(buf, count, MPI_INT, st.MPI_SOURCE, 100 + t, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    CHECK(buf[count - 1] == st.MPI_SOURCE * 100 + count - 1);
    ++next[st.MPI_SOURCE];
  }
  CHECK_MPI(MPI_Waitall(n, sends, MPI_STATUSES_IGNORE));
  return NULL;
}

/* Thread 0 starts a receive from itself and hands the request to thread 1, which waits on it;
 * thread 1 starts a send whose request thread 0 waits on. */
static MPI_Request g_handed[2];
static atomic_int g_ready;
static void* handoff(void* arg) {
  const int t = (int)(intptr_t)arg;
  static int in = -1, out = 77;
  if (t == 0) {
    CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, g_rank, 300, MPI_COMM_WORLD, &g_handed[0]));
  } else {
    CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, g_rank, 300, MPI_COMM_WORLD, &g_handed[1]));
  }
  atomic_fetch_add(&g_ready, 1);
  while (atomic_load(&g_ready) < 2) sched_yield();
  MPI_Status st;
  CHECK_MPI(MPI_Wait(&g_handed[1 - t], &st));
  if (t == 1) CHECK(in == 77 && st.MPI_SOURCE == g_rank && st.MPI_TAG == 300);
  return NULL;
}

int main(int argc, char** argv) {
  init_multiple(&argc, &argv, &g_rank, &g_size, NULL, NULL);
  const int threads = thread_count();

  check_context("MPI_Mprobe/MPI_Improbe from %d threads at once", threads);
  MPI_Request sends[kMaxRanks * kPerPeer];
  int out[kPerPeer];
  for (int i = 0; i < kPerPeer; ++i) out[i] = g_rank * 1000 + i;
  int n = 0;
  for (int i = 0; i < kPerPeer; ++i)
    for (int dest = 0; dest < g_size; ++dest)
      CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, dest, 7, MPI_COMM_WORLD, &sends[n++]));
  run_threads(threads, matched);
  CHECK_MPI(MPI_Waitall(n, sends, MPI_STATUSES_IGNORE));
  for (int r = 0; r < g_size; ++r)
    for (int i = 0; i < kPerPeer; ++i) CHECK(atomic_load(&g_seen[r][i]) == 1);

  check_context("MPI_Probe then MPI_Recv, one tag per thread");
  run_threads(threads, probed);

  check_context("MPI_Wait on a request another thread started");
  run_threads(2, handoff);

  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (g_rank == 0) printf("threads_probe: ok (%d ranks, %d threads)\n", g_size, threads);
  MPI_Finalize();
  return 0;
}
