/* One 1 GiB message from rank 0 to rank 1, contents checked. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  CHECK(size >= 2);
  const size_t n = (size_t)1 << 30;
  if (rank < 2) {
    unsigned char* buf = malloc(n);
    CHECK(buf != NULL);
    if (rank == 0) {
      for (size_t i = 0; i < n; ++i) buf[i] = (unsigned char)(i ^ (i >> 20));
      MPI_Send(buf, (int)n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    } else {
      memset(buf, 0, n);
      MPI_Status st;
      MPI_Recv(buf, (int)n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &st);
      int count = -1;
      MPI_Get_count(&st, MPI_BYTE, &count);
      CHECK(count == (int)n);
      for (size_t i = 0; i < n; ++i)
        if (buf[i] != (unsigned char)(i ^ (i >> 20))) CHECK(!"1 GiB message corrupted");
    }
    free(buf);
  }
  MPI_Finalize();
  return 0;
}
