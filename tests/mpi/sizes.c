/* Zero-byte messages (also with a NULL buffer) and 64 MiB messages with checked contents: between
 * ranks 0 and 1, or rank 0 and itself in a 1-rank world. */
#include <stdlib.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  MPI_Status st;
  MPI_Request req;
  int count = -1;
  MPI_Isend(NULL, 0, MPI_INT, right, 1, MPI_COMM_WORLD, &req);
  MPI_Recv(NULL, 0, MPI_INT, left, 1, MPI_COMM_WORLD, &st);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == 0 && st.MPI_SOURCE == left && st.MPI_TAG == 1);
  /* An empty message into a real buffer, matched by wildcards: count 0, buffer untouched. */
  int guard[2] = {-5, -5};
  MPI_Sendrecv(NULL, 0, MPI_BYTE, right, 3, guard, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
               MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == 0 && st.MPI_SOURCE == left && st.MPI_TAG == 3 && guard[0] == -5);

  const size_t n = (size_t)64 << 20; /* bytes */
  if (rank < 2) {
    unsigned char* out = malloc(n);
    unsigned char* in = malloc(n);
    for (size_t i = 0; i < n; ++i) out[i] = (unsigned char)(i * 31 + rank);
    const int peer = size == 1 ? 0 : 1 - rank;
    MPI_Sendrecv(out, (int)n, MPI_BYTE, peer, 2, in, (int)n, MPI_BYTE, peer, 2, MPI_COMM_WORLD,
                 &st);
    MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK(count == (int)n);
    for (size_t i = 0; i < n; ++i) {
      if (in[i] != (unsigned char)(i * 31 + peer)) {
        fprintf(stderr, "rank %d: 64 MiB message corrupted at byte %zu\n", rank, i);
        CHECK(0);
      }
    }
    free(in);
    free(out);
  }
  MPI_Finalize();
  return 0;
}
