/* Synchronous mode: MPI_Ssend/MPI_Issend complete only once the receive has matched. In each
 * pair (0,1), (2,3), ... the receiver posts its receives 300 ms late; the sender's MPI_Ssend must
 * take that long, and MPI_Test on its MPI_Issend must stay false until then, then turn true. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "check.h"

enum { kDelayMs = 300 };
static const double kMinWait = 0.2; /* the delay less slack for ranks leaving a barrier apart */

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  CHECK(size >= 2);
  const int sender = rank % 2 == 0 && rank + 1 < size, receiver = rank % 2 == 1;
  int v = 100 + rank;
  MPI_Barrier(MPI_COMM_WORLD);
  if (sender) {
    double t0 = MPI_Wtime();
    MPI_Ssend(&v, 1, MPI_INT, rank + 1, 1, MPI_COMM_WORLD);
    const double blocked = MPI_Wtime() - t0;
    if (blocked < kMinWait) {
      fprintf(stderr, "rank %d: MPI_Ssend returned after %.3f s, before the receive was posted\n",
              rank, blocked);
      CHECK(0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Request req;
    int flag = 1;
    t0 = MPI_Wtime();
    MPI_Issend(&v, 1, MPI_INT, rank + 1, 2, MPI_COMM_WORLD, &req);
    /* Still unmatched for the first 100 ms: MPI_Test must keep saying no. */
    while (MPI_Wtime() - t0 < 0.1) {
      MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
      if (flag) {
        fprintf(stderr,
                "rank %d: MPI_Issend completed after %.3f s, before the receive was posted\n", rank,
                MPI_Wtime() - t0);
        CHECK(0);
      }
      sleep_ms(1);
    }
    /* Once the receiver posts, MPI_Test alone (no Wait) must complete it. */
    while (!flag && MPI_Wtime() - t0 < 20) {
      MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
      if (!flag) sleep_ms(1);
    }
    CHECK(flag == 1 && req == MPI_REQUEST_NULL);
    CHECK(MPI_Wtime() - t0 >= kMinWait);
  } else if (receiver) {
    sleep_ms(kDelayMs);
    MPI_Recv(&v, 1, MPI_INT, rank - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(v == 100 + rank - 1);
    MPI_Barrier(MPI_COMM_WORLD);
    sleep_ms(kDelayMs);
    v = -1;
    MPI_Recv(&v, 1, MPI_INT, rank - 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(v == 100 + rank - 1);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
