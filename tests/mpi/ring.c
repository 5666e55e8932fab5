/* A token goes around the ring several times; each rank checks the value it receives. Rank 0
 * sends nonblocking, so a 1-rank world (a send to itself) needs no buffering. */
#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  for (int lap = 0; lap < 10; ++lap) {
    long token = 0;
    MPI_Status st;
    if (rank == 0) {
      long start = lap * 1000;
      MPI_Request req;
      MPI_Isend(&start, 1, MPI_LONG, right, lap, MPI_COMM_WORLD, &req);
      MPI_Recv(&token, 1, MPI_LONG, left, lap, MPI_COMM_WORLD, &st);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      CHECK(token == lap * 1000 + (long)size * (size - 1) / 2);
    } else {
      MPI_Recv(&token, 1, MPI_LONG, left, lap, MPI_COMM_WORLD, &st);
      CHECK(token == lap * 1000 + (long)rank * (rank - 1) / 2);
      token += rank;
      MPI_Send(&token, 1, MPI_LONG, right, lap, MPI_COMM_WORLD);
    }
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == lap);
  }
  MPI_Finalize();
  return 0;
}
