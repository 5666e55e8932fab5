/* A message longer than the receive buffer: MPI_ERR_TRUNCATE from MPI_Recv, and MPI_ERR_IN_STATUS
 * from MPI_Waitall with the truncation in that request's status. Needs 2 ranks or more. */
#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  CHECK(size >= 2);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int data[100];
  for (int i = 0; i < 100; ++i) data[i] = i;
  if (rank == 0) {
    MPI_Send(data, 100, MPI_INT, 1, 1, MPI_COMM_WORLD);
    MPI_Send(data, 100, MPI_INT, 1, 2, MPI_COMM_WORLD);
    MPI_Send(data, 5, MPI_INT, 1, 3, MPI_COMM_WORLD);
  } else if (rank == 1) {
    int small[10];
    MPI_Status st;
    int rc = MPI_Recv(small, 10, MPI_INT, 0, 1, MPI_COMM_WORLD, &st);
    CHECK(rc != MPI_SUCCESS);
    CHECK(error_class(rc) == MPI_ERR_TRUNCATE);
    MPI_Request reqs[2];
    int fits[10];
    MPI_Irecv(small, 10, MPI_INT, 0, 2, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(fits, 10, MPI_INT, 0, 3, MPI_COMM_WORLD, &reqs[1]);
    MPI_Status sts[2];
    rc = MPI_Waitall(2, reqs, sts);
    CHECK(error_class(rc) == MPI_ERR_IN_STATUS);
    CHECK(error_class(sts[0].MPI_ERROR) == MPI_ERR_TRUNCATE);
#ifdef WEFT_MPI
    CHECK(sts[1].MPI_ERROR == MPI_SUCCESS);
#else
    /* The standard also allows MPI_ERR_PENDING for a request Waitall left incomplete (Open MPI). */
    CHECK(sts[1].MPI_ERROR == MPI_SUCCESS || sts[1].MPI_ERROR == MPI_ERR_PENDING);
    if (sts[1].MPI_ERROR == MPI_ERR_PENDING) CHECK(MPI_Wait(&reqs[1], &sts[1]) == MPI_SUCCESS);
#endif
    int count = -1;
    MPI_Get_count(&sts[1], MPI_INT, &count);
    CHECK(count == 5 && fits[4] == 4);
    CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
