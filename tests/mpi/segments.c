/* Long messages between rank pairs, written for a transport that sends them as pieces
 * (WEFT_OFI_MAX_MSG): two long messages in flight to one receiver that matches them in the
 * opposite order, each with a short message behind it that must not overtake it; a synchronous
 * send that completes only once matched; a receive from any source with any tag; a probe that
 * reports the whole length; truncation into a buffer that ends inside a piece. Even ranks send,
 * odd ranks receive; needs an even number of ranks. */
#include <stdlib.h>

#include "check.h"

enum { kLong = 5000, kShort = 3 };

static void fill(int* v, int n, int seed) {
  for (int i = 0; i < n; ++i) v[i] = seed * 100000 + i;
}
static void expect(const int* v, int n, int seed) {
  for (int i = 0; i < n; ++i) CHECK(v[i] == seed * 100000 + i);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size % 2 == 0);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int peer = rank ^ 1;
  int* a = malloc(sizeof(int) * kLong);
  int* b = malloc(sizeof(int) * kLong);
  int small[kShort];
  if (rank % 2 == 0) {
    fill(a, kLong, 1);
    fill(b, kLong, 2);
    fill(small, kShort, 3);
    MPI_Request r[4];
    CHECK_MPI(MPI_Isend(a, kLong, MPI_INT, peer, 1, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Isend(small, kShort, MPI_INT, peer, 1, MPI_COMM_WORLD, &r[1]));
    CHECK_MPI(MPI_Isend(b, kLong, MPI_INT, peer, 2, MPI_COMM_WORLD, &r[2]));
    CHECK_MPI(MPI_Isend(small, kShort, MPI_INT, peer, 2, MPI_COMM_WORLD, &r[3]));
    CHECK_MPI(MPI_Waitall(4, r, MPI_STATUSES_IGNORE));
    /* Synchronous: not complete before the receiver, which waits for this message, posts. */
    MPI_Request sync;
    CHECK_MPI(MPI_Issend(a, kLong, MPI_INT, peer, 4, MPI_COMM_WORLD, &sync));
    int flag = 1;
    for (int i = 0; i < 100; ++i) CHECK_MPI(MPI_Test(&sync, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag);
    CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, peer, 3, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&sync, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Send(b, kLong, MPI_INT, peer, 5, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(a, kLong, MPI_INT, peer, 6, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(b, kLong, MPI_INT, peer, 7, MPI_COMM_WORLD));
  } else {
    MPI_Status st;
    /* Tag 2's long message first, then tag 1's: pieces go to the receive that matched. */
    CHECK_MPI(MPI_Recv(b, kLong, MPI_INT, peer, 2, MPI_COMM_WORLD, &st));
    expect(b, kLong, 2);
    CHECK_MPI(MPI_Recv(a, kLong, MPI_INT, peer, 1, MPI_COMM_WORLD, &st));
    expect(a, kLong, 1);
    for (int tag = 1; tag <= 2; ++tag) {
      CHECK_MPI(MPI_Recv(small, kShort, MPI_INT, peer, tag, MPI_COMM_WORLD, &st));
      expect(small, kShort, 3);
    }
    CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, peer, 3, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Recv(a, kLong, MPI_INT, peer, 4, MPI_COMM_WORLD, &st));
    expect(a, kLong, 1);
    /* Any source, any tag. */
    int count = -1;
    CHECK_MPI(MPI_Recv(b, kLong, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == 5 && count == kLong);
    expect(b, kLong, 2);
    /* A probe reports the whole length. */
    CHECK_MPI(MPI_Probe(peer, 6, MPI_COMM_WORLD, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == kLong);
    CHECK_MPI(MPI_Recv(a, kLong, MPI_INT, peer, 6, MPI_COMM_WORLD, &st));
    expect(a, kLong, 1);
    /* Truncated: the first 1001 ints arrive, then MPI_ERR_TRUNCATE. */
    int* part = calloc(kLong, sizeof(int));
    const int rc = MPI_Recv(part, 1001, MPI_INT, peer, 7, MPI_COMM_WORLD, &st);
    int err_class = 0;
    MPI_Error_class(rc, &err_class);
    CHECK(err_class == MPI_ERR_TRUNCATE);
    expect(part, 1001, 2);
    CHECK(part[1001] == 0);
    free(part);
  }
  free(a);
  free(b);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  if (rank == 0) printf("segments: ok\n");
  return 0;
}
