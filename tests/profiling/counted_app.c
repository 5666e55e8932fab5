/* Makes a known number of calls for the profiling tool to count: 3 MPI_Send (ring), 2
 * MPI_Allreduce, and MPI_Barrier, which the tool does not intercept. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < 3; ++i) {
    int v = rank, got = -1;
    MPI_Request r;
    MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, i, MPI_COMM_WORLD, &r);
    MPI_Send(&v, 1, MPI_INT, (rank + 1) % size, i, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (got != (rank + size - 1) % size) MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int sum = 0;
  for (int i = 0; i < 2; ++i) MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (sum != size * (size - 1) / 2) MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
