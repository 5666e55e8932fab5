/* Non-overtaking: messages between a pair with the same tag arrive in the order sent, whether
 * received by source or with MPI_ANY_SOURCE, and whether sent blocking or nonblocking. */
#include "check.h"

enum { kMessages = 200 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  MPI_Request reqs[kMessages];
  int out[kMessages];
  for (int i = 0; i < kMessages; ++i) {
    out[i] = i;
    MPI_Isend(&out[i], 1, MPI_INT, right, 7, MPI_COMM_WORLD, &reqs[i]);
  }
  for (int i = 0; i < kMessages; ++i) {
    int v = -1;
    MPI_Recv(&v, 1, MPI_INT, size == 1 ? 0 : MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(v == i);
  }
  MPI_Waitall(kMessages, reqs, MPI_STATUSES_IGNORE);
  /* Blocking sends, received by explicit source after the receiver posted nothing in advance;
   * a larger message in the middle must not overtake the small ones around it. */
  static int big[100000];
  for (int i = 0; i < 3; ++i) {
    if (i == 1) {
      big[0] = 1;
      MPI_Isend(big, 100000, MPI_INT, right, 8, MPI_COMM_WORLD, &reqs[i]);
    } else {
      out[i] = 1000 + i;
      MPI_Isend(&out[i], 1, MPI_INT, right, 8, MPI_COMM_WORLD, &reqs[i]);
    }
  }
  static int in[100000];
  for (int i = 0; i < 3; ++i) {
    MPI_Status st;
    MPI_Recv(in, 100000, MPI_INT, left, 8, MPI_COMM_WORLD, &st);
    int count;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == (i == 1 ? 100000 : 1));
    if (i != 1) CHECK(in[0] == 1000 + i);
  }
  MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
  MPI_Finalize();
  return 0;
}
