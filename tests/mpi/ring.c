/* A token goes around the ring several times; each rank checks the value it receives. */
#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  for (int lap = 0; lap < 10; ++lap) {
    long token = 0;
    MPI_Status st;
    if (rank == 0) {
      token = lap * 1000;
      MPI_Send(&token, 1, MPI_LONG, right, lap, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_LONG, left, lap, MPI_COMM_WORLD, &st);
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
