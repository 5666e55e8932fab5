/* Generalized active target (post/start/complete/wait): each rank exposes its window to its two
 * neighbours and accesses theirs, for several rounds, waiting with MPI_Win_wait or polling with
 * MPI_Win_test; then a one-directional epoch where only even ranks access odd ones. */
#include <stdlib.h>

#include "check.h"

static MPI_Group neighbours(MPI_Group world, int rank, int size) {
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int ranks[2] = {left, right};
  MPI_Group g;
  MPI_Group_incl(world, left == right ? 1 : 2, ranks, &g);
  return g;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int* buf = NULL;
  MPI_Win win;
  /* Slot 0 is written by the left neighbour, slot 1 by the right one. */
  CHECK_MPI(
      MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &win));
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  MPI_Group world, nb;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  nb = neighbours(world, rank, size);
  for (int round = 0; round < 20; ++round) {
    check_context("round %d", round);
    buf[0] = buf[1] = -1;
    CHECK_MPI(MPI_Win_post(nb, 0, win));
    CHECK_MPI(MPI_Win_start(nb, 0, win));
    const int value = rank * 100 + round;
    CHECK_MPI(MPI_Put(&value, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Put(&value, 1, MPI_INT, left, 1, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    if (round % 2) {
      CHECK_MPI(MPI_Win_wait(win));
    } else {
      int flag = 0;
      while (!flag) CHECK_MPI(MPI_Win_test(win, &flag));
    }
    if (size > 1) {
      CHECK(buf[0] == left * 100 + round);
      CHECK(buf[1] == right * 100 + round);
    } else {
      CHECK(buf[0] == round && buf[1] == round);
    }
  }
  /* Even ranks access the next odd rank; odd ranks only expose. */
  if (size > 1) {
    check_context("even to odd");
    const int partner = rank % 2 ? rank - 1 : rank + 1;
    MPI_Group pg;
    if (partner < size) {
      MPI_Group_incl(world, 1, &partner, &pg);
      if (rank % 2) {
        buf[0] = 0;
        CHECK_MPI(MPI_Win_post(pg, MPI_MODE_NOSTORE, win));
        CHECK_MPI(MPI_Win_wait(win));
        CHECK(buf[0] == 7 * partner + 1);
      } else {
        const int v = 7 * rank + 1;
        CHECK_MPI(MPI_Win_start(pg, 0, win));
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, partner, 0, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
      }
      MPI_Group_free(&pg);
    }
  }
  MPI_Group_free(&nb);
  MPI_Group_free(&world);
  CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  if (rank == 0) printf("rma_pscw: ok\n");
  return 0;
}
