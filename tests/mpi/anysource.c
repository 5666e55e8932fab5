/* All-pairs exchange received with MPI_ANY_SOURCE/MPI_ANY_TAG: the status must name the real
 * sender, tag and count of each message. */
#include <stdlib.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  const size_t nranks = (unsigned)size;
  /* Rank r sends r+1 ints, all equal to 100*r + dest, with tag 10 + r; all sends stay in flight
   * until every receive is done (so a send to oneself needs no buffering). */
  int* out = malloc(sizeof(int) * nranks * (size_t)(rank + 1));
  MPI_Request* reqs = malloc(sizeof(MPI_Request) * nranks);
  for (int d = 0; d < size; ++d) {
    int* msg = out + d * (rank + 1);
    for (int i = 0; i <= rank; ++i) msg[i] = 100 * rank + d;
    MPI_Isend(msg, rank + 1, MPI_INT, d, 10 + rank, MPI_COMM_WORLD, &reqs[d]);
  }
  int* seen = calloc(nranks, sizeof(int));
  int* buf = malloc(sizeof(int) * nranks);
  for (int k = 0; k < size; ++k) {
    MPI_Status st;
    MPI_Recv(buf, size, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    const int src = st.MPI_SOURCE;
    if (src < 0 || src >= size || seen[src]) {
      fprintf(stderr, "rank %d: ANY_SOURCE status names source %d (bad or repeated)\n", rank, src);
      CHECK(0);
    }
    seen[src] = 1;
    CHECK(st.MPI_TAG == 10 + src);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == src + 1);
    for (int i = 0; i < count; ++i) CHECK(buf[i] == 100 * src + rank);
  }
  MPI_Waitall(size, reqs, MPI_STATUSES_IGNORE);
  free(buf);
  free(seen);
  free(reqs);
  free(out);
  MPI_Finalize();
  return 0;
}
