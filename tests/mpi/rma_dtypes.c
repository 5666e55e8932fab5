/* Derived datatypes at both ends of one-sided calls: a strided origin into a contiguous target
 * and back, an indexed target with holes (the bytes between stay untouched), accumulate with a
 * vector target type, get_accumulate into a strided result, and MINLOC on MPI_2INT. */
#include <stdlib.h>

#include "check.h"

enum { N = 16 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int* win_mem = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(4 * N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                             &win_mem, &win));
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  for (int i = 0; i < 4 * N; ++i) win_mem[i] = -1;

  MPI_Datatype every_other, holes, blocks;
  MPI_Type_vector(N, 1, 2, MPI_INT, &every_other); /* N ints, stride 2 */
  MPI_Type_commit(&every_other);
  const int lens[3] = {2, 3, 1}, displs[3] = {1, 5, 12};
  MPI_Type_indexed(3, lens, displs, MPI_INT, &holes); /* 6 ints at 1,2,5,6,7,12 */
  MPI_Type_commit(&holes);
  MPI_Type_vector(4, 2, 4, MPI_INT, &blocks); /* 8 ints: pairs every 4 */
  MPI_Type_commit(&blocks);

  check_context("strided origin -> contiguous target");
  int src[2 * N];
  for (int i = 0; i < 2 * N; ++i) src[i] = rank * 1000 + i;
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Put(src, 1, every_other, right, 0, N, MPI_INT, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < N; ++i) CHECK(win_mem[i] == left * 1000 + 2 * i);

  check_context("contiguous target -> strided origin");
  int back[2 * N];
  for (int i = 0; i < 2 * N; ++i) back[i] = -7;
  CHECK_MPI(MPI_Get(back, 1, every_other, right, 0, N, MPI_INT, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < 2 * N; ++i) CHECK(back[i] == (i % 2 ? -7 : rank * 1000 + i));

  check_context("indexed target with holes");
  for (int i = 0; i < 4 * N; ++i) win_mem[i] = -1;
  CHECK_MPI(MPI_Win_fence(0, win));
  const int six[6] = {10, 11, 12, 13, 14, 15};
  CHECK_MPI(MPI_Put(six, 6, MPI_INT, right, N, 1, holes, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  const int where[6] = {1, 2, 5, 6, 7, 12};
  for (int i = 0, k = 0; i < 16; ++i) {
    if (k < 6 && where[k] == i) {
      CHECK(win_mem[N + i] == 10 + k);
      ++k;
    } else {
      CHECK(win_mem[N + i] == -1);
    }
  }

  check_context("accumulate into a vector target");
  for (int i = 0; i < 4 * N; ++i) win_mem[i] = 0;
  CHECK_MPI(MPI_Win_fence(0, win));
  const int ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  CHECK_MPI(MPI_Accumulate(ones, 8, MPI_INT, 0, 0, 1, blocks, MPI_SUM, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  if (rank == 0)
    for (int i = 0; i < 16; ++i) CHECK(win_mem[i] == ((i % 4) < 2 ? size : 0));

  check_context("get_accumulate into a strided result");
  CHECK_MPI(MPI_Win_fence(0, win));
  int result[2 * N];
  for (int i = 0; i < 2 * N; ++i) result[i] = -3;
  if (rank == 0) {
    /* Replace elements 0..N-1 of our own window, reading their old values spread out. */
    int fresh[N];
    for (int i = 0; i < N; ++i) fresh[i] = 500 + i;
    CHECK_MPI(MPI_Get_accumulate(fresh, N, MPI_INT, result, 1, every_other, 0, 0, N, MPI_INT,
                                 MPI_REPLACE, win));
  }
  CHECK_MPI(MPI_Win_fence(0, win));
  if (rank == 0) {
    for (int i = 0; i < N; ++i) {
      CHECK(result[2 * i] == ((i % 4) < 2 ? size : 0));
      CHECK(result[2 * i + 1] == -3);
      CHECK(win_mem[i] == 500 + i);
    }
  }

  check_context("MINLOC on MPI_2INT");
  struct {
    int value, index;
  } pair = {100 - rank, rank};
  CHECK_MPI(MPI_Win_fence(0, win));
  if (rank == 0) win_mem[2 * N] = 1000, win_mem[2 * N + 1] = -1;
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Accumulate(&pair, 1, MPI_2INT, 0, 2 * N, 1, MPI_2INT, MPI_MINLOC, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  if (rank == 0) CHECK(win_mem[2 * N] == 100 - (size - 1) && win_mem[2 * N + 1] == size - 1);

  MPI_Type_free(&every_other);
  MPI_Type_free(&holes);
  MPI_Type_free(&blocks);
  CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  if (rank == 0) printf("rma_dtypes: ok\n");
  return 0;
}
