/* The demo: a token travels once around a ring of ranks. Each rank receives it from its left
 * neighbour, adds its own rank, and passes it right; rank 0 starts and finishes the trip. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int left = (rank - 1 + size) % size, right = (rank + 1) % size;
  int token = 0;
  MPI_Status status;
  if (rank == 0) {
    /* Nonblocking, so that with one rank the token can go to rank 0 itself. */
    const int start = 0;
    MPI_Request request;
    MPI_Isend(&start, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &request);
    MPI_Recv(&token, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &status);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    printf("rank %d of %d received token %d from rank %d\n", rank, size, token, status.MPI_SOURCE);
    printf("rank 0: the token came back as %d (0 + 1 + ... + %d)\n", token, size - 1);
  } else {
    MPI_Recv(&token, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &status);
    printf("rank %d of %d received token %d from rank %d\n", rank, size, token, status.MPI_SOURCE);
    token += rank;
    MPI_Send(&token, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
