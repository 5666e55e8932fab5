/* Thousands of communicators created and freed in a loop, with many alive at once, never mix up
 * their messages: context ids are agreed collectively and reused after MPI_Comm_free. Also
 * nonblocking MPI_Comm_idup overlapping blocking creation and other traffic. */
#include "check.h"

enum { kLoops = 2000, kAlive = 40 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);

  check_context("%d dup/allreduce/free cycles", kLoops);
  for (int i = 0; i < kLoops; ++i) {
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_dup(i % 2 ? MPI_COMM_WORLD : MPI_COMM_SELF, &c));
    int v = i, sum = -1;
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c));
    CHECK(sum == (i % 2 ? i * size : i));
    CHECK_MPI(MPI_Comm_free(&c));
  }

  check_context("%d communicators alive at once, each with its own traffic", kAlive);
  MPI_Comm alive[kAlive];
  for (int i = 0; i < kAlive; ++i) {
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, (i % 2) ? -rank : rank, &alive[i]));
  }
  MPI_Request reqs[2 * kAlive];
  int out[kAlive], in[kAlive];
  for (int i = 0; i < kAlive; ++i) {
    int crank, csize;
    MPI_Comm_rank(alive[i], &crank);
    MPI_Comm_size(alive[i], &csize);
    out[i] = 100 * i + crank;
    CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, (crank + csize - 1) % csize, 0, alive[i], &reqs[2 * i]));
    CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, (crank + 1) % csize, 0, alive[i], &reqs[2 * i + 1]));
  }
  CHECK_MPI(MPI_Waitall(2 * kAlive, reqs, MPI_STATUSES_IGNORE));
  for (int i = 0; i < kAlive; ++i) {
    int crank, csize;
    MPI_Comm_rank(alive[i], &crank);
    MPI_Comm_size(alive[i], &csize);
    CHECK(in[i] == 100 * i + (crank + csize - 1) % csize);
  }
  for (int i = 0; i < kAlive; i += 2) CHECK_MPI(MPI_Comm_free(&alive[i]));

  check_context("MPI_Comm_idup overlapping a blocking dup, a barrier and point-to-point");
  MPI_Comm a = MPI_COMM_NULL, b = MPI_COMM_NULL, blocking;
  MPI_Request idups[2], barrier;
  CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &a, &idups[0]));
  CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &barrier));
  CHECK_MPI(MPI_Comm_idup(alive[1], &b, &idups[1]));
  CHECK_MPI(MPI_Comm_dup(alive[3], &blocking));
  int token = rank, got = -1;
  CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 5, &got, 1, MPI_INT,
                         (rank + size - 1) % size, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(got == (rank + size - 1) % size);
  CHECK_MPI(MPI_Waitall(2, idups, MPI_STATUSES_IGNORE));
  CHECK_MPI(MPI_Wait(&barrier, MPI_STATUS_IGNORE));
  CHECK(a != MPI_COMM_NULL && b != MPI_COMM_NULL);
  MPI_Comm made[] = {a, b, blocking};
  for (int i = 0; i < 3; ++i) {
    int v = 1, sum = 0, result;
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, made[i]));
    CHECK(sum == size);
    for (int j = 0; j < i; ++j) {
      CHECK_MPI(MPI_Comm_compare(made[i], made[j], &result));
      CHECK(result != MPI_IDENT);
    }
  }
  for (int i = 0; i < 3; ++i) CHECK_MPI(MPI_Comm_free(&made[i]));
  for (int i = 1; i < kAlive; i += 2) CHECK_MPI(MPI_Comm_free(&alive[i]));
  MPI_Finalize();
  return 0;
}
