/* Non-overtaking: messages between a pair with the same tag arrive in the order sent, whether
 * received by source or with MPI_ANY_SOURCE, sent blocking or nonblocking, small or large. */
#include <stdlib.h>

#include "check.h"

enum { kMessages = 200, kBig = 100000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  MPI_Request reqs[kMessages];
  int out[kMessages];

  /* 1. A burst of Isends to the right, received one by one with MPI_ANY_SOURCE. */
  for (int i = 0; i < kMessages; ++i) {
    out[i] = i;
    MPI_Isend(&out[i], 1, MPI_INT, right, 7, MPI_COMM_WORLD, &reqs[i]);
  }
  for (int i = 0; i < kMessages; ++i) {
    int v = -1;
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (v != i) {
      fprintf(stderr, "rank %d: message %d arrived as number %d\n", rank, v, i);
      CHECK(0);
    }
  }
  MPI_Waitall(kMessages, reqs, MPI_STATUSES_IGNORE);

  /* 2. A large (rendezvous-sized) message between two small ones must not be overtaken by, nor
   * overtake, its neighbours. */
  int* big = calloc(kBig, sizeof(int));
  int* in = calloc(kBig, sizeof(int));
  for (int i = 0; i < 3; ++i) {
    if (i == 1) {
      big[kBig - 1] = 4242;
      MPI_Isend(big, kBig, MPI_INT, right, 8, MPI_COMM_WORLD, &reqs[i]);
    } else {
      out[i] = 1000 + i;
      MPI_Isend(&out[i], 1, MPI_INT, right, 8, MPI_COMM_WORLD, &reqs[i]);
    }
  }
  for (int i = 0; i < 3; ++i) {
    MPI_Status st;
    MPI_Recv(in, kBig, MPI_INT, left, 8, MPI_COMM_WORLD, &st);
    int count;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == (i == 1 ? kBig : 1));
    CHECK(i == 1 ? in[kBig - 1] == 4242 : in[0] == 1000 + i);
  }
  MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
  free(in);
  free(big);

  /* 3. Every other rank sends a numbered stream to rank 0 (blocking sends), which receives them
   * all with MPI_ANY_SOURCE: the streams interleave, but each arrives in its own order. */
  enum { kStream = 50 };
  if (rank == 0) {
    int* next = calloc(size, sizeof(int));
    for (int k = 0; k < (size - 1) * kStream; ++k) {
      int v = -1;
      MPI_Status st;
      MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &st);
      CHECK(st.MPI_SOURCE > 0 && st.MPI_SOURCE < size);
      if (v != next[st.MPI_SOURCE]) {
        fprintf(stderr, "rank 0: from rank %d got number %d, expected %d\n", st.MPI_SOURCE, v,
                next[st.MPI_SOURCE]);
        CHECK(0);
      }
      ++next[st.MPI_SOURCE];
    }
    free(next);
  } else {
    for (int i = 0; i < kStream; ++i) MPI_Send(&i, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
