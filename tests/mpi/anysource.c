/* All-pairs exchange received with MPI_ANY_SOURCE/MPI_ANY_TAG: the status must name the real
 * sender, tag and count of each message. */
#include <stdlib.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  /* Rank r sends r+1 ints, all equal to 100*r + dest, with tag 10 + r. */
  int* out = malloc(sizeof(int) * (size + 1));
  MPI_Request* reqs = malloc(sizeof(MPI_Request) * size);
  for (int d = 0; d < size; ++d) {
    int* msg = malloc(sizeof(int) * (rank + 1));
    for (int i = 0; i <= rank; ++i) msg[i] = 100 * rank + d;
    MPI_Isend(msg, rank + 1, MPI_INT, d, 10 + rank, MPI_COMM_WORLD, &reqs[d]);
    MPI_Wait(&reqs[d], MPI_STATUS_IGNORE);
    free(msg);
  }
  int* seen = calloc(size, sizeof(int));
  for (int k = 0; k < size; ++k) {
    int buf[64];
    MPI_Status st;
    MPI_Recv(buf, 64, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    const int src = st.MPI_SOURCE;
    CHECK(src >= 0 && src < size && !seen[src]);
    seen[src] = 1;
    CHECK(st.MPI_TAG == 10 + src);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == src + 1);
    for (int i = 0; i < count; ++i) CHECK(buf[i] == 100 * src + rank);
  }
  free(seen);
  free(reqs);
  free(out);
  MPI_Finalize();
  return 0;
}
