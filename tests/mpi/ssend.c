/* Synchronous mode: MPI_Ssend/MPI_Issend complete only once the receive has matched. Rank 1
 * posts its receives 300 ms late; rank 0's sends must not complete before that. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "check.h"

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  CHECK(size >= 2);
  int v = 5;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    double t0 = MPI_Wtime();
    MPI_Ssend(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    CHECK(MPI_Wtime() - t0 >= 0.25);
    MPI_Request req;
    int flag = 1;
    MPI_Issend(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &req);
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    CHECK(flag == 0);
    t0 = MPI_Wtime();
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(MPI_Wtime() - t0 >= 0.2);
  } else if (rank == 1) {
    sleep_ms(300);
    MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    sleep_ms(300);
    MPI_Recv(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(v == 5);
  }
  MPI_Finalize();
  return 0;
}
