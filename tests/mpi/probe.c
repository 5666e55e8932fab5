/* Probe then receive messages of unknown size: MPI_Probe/MPI_Iprobe report source, tag and
 * count of the message they find, and the message is still there to receive. */
#include <stdlib.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  int flag = 1;
  MPI_Iprobe(left, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  CHECK(flag == 0); /* nothing sent with tag 99 */
  for (int round = 0; round < 5; ++round) {
    const int n = 1 + (rank * 37 + round * 1001) % 5000;
    double* out = malloc(sizeof(double) * n);
    for (int i = 0; i < n; ++i) out[i] = rank + i * 0.5;
    MPI_Request req;
    MPI_Isend(out, n, MPI_DOUBLE, right, round, MPI_COMM_WORLD, &req);
    MPI_Status st;
    if (round % 2 == 0) {
      MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    } else {
      do MPI_Iprobe(left, round, MPI_COMM_WORLD, &flag, &st);
      while (!flag);
    }
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == round);
    int count = -1;
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    const int expect = 1 + (left * 37 + round * 1001) % 5000;
    CHECK(count == expect);
    double* in = malloc(sizeof(double) * count);
    MPI_Recv(in, count, MPI_DOUBLE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < count; ++i) CHECK(in[i] == left + i * 0.5);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    free(in);
    free(out);
  }
  MPI_Finalize();
  return 0;
}
