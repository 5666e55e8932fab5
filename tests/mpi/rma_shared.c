/* Shared-memory windows: MPI_Win_allocate_shared over MPI_Comm_split_type(SHARED), memory
 * contiguous across ranks by default (each rank's part starts where the previous one ends), page
 * aligned with alloc_shared_noncontig; MPI_Win_shared_query gives every rank's part in this
 * process, which neighbours write by plain stores and read after MPI_Win_sync + barrier. Also
 * MPI_Win_shared_query on an MPI_Win_allocate window. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

static void exercise(MPI_Comm node, int noncontig) {
  int rank, size;
  MPI_Comm_rank(node, &rank);
  MPI_Comm_size(node, &size);
  MPI_Info info = MPI_INFO_NULL;
  if (noncontig) {
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
  }
  /* Ranks contribute different sizes: rank r holds r + 1 doubles (rank 1 none at all). */
  const int mine = rank == 1 ? 0 : rank + 1;
  double* base = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate_shared(mine * (MPI_Aint)sizeof(double), sizeof(double), info, node,
                                    &base, &win));
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);
  CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
  for (int i = 0; i < mine; ++i) base[i] = rank * 100 + i;
  CHECK_MPI(MPI_Win_sync(win));
  CHECK_MPI(MPI_Barrier(node));
  CHECK_MPI(MPI_Win_sync(win));
  char* expected_next = NULL;
  for (int r = 0; r < size; ++r) {
    MPI_Aint bytes = -1;
    int unit = 0;
    double* p = NULL;
    CHECK_MPI(MPI_Win_shared_query(win, r, &bytes, &unit, &p));
    const int n = r == 1 ? 0 : r + 1;
    CHECK(bytes == n * (MPI_Aint)sizeof(double));
    CHECK(unit == sizeof(double));
    if (n > 0) {
      if (noncontig) {
        CHECK(((uintptr_t)p % 4096) == 0);
      } else if (expected_next != NULL) {
        CHECK((char*)p == expected_next); /* contiguous in rank order */
      }
      expected_next = (char*)(p + n);
    }
    for (int i = 0; i < n; ++i) CHECK(p[i] == r * 100 + i);
    if (r == rank && n > 0) CHECK(p == base);
  }
  /* MPI_PROC_NULL: the lowest rank that has memory (rank 0 always does). */
  MPI_Aint bytes = -1;
  int unit = 0;
  double* p = NULL;
  CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &bytes, &unit, &p));
  CHECK(bytes == sizeof(double) && p[0] == 0);
  /* Each rank increments its right neighbour's first element by a plain store. */
  CHECK_MPI(MPI_Barrier(node));
  const int right = (rank + 1) % size;
  double* q = NULL;
  CHECK_MPI(MPI_Win_shared_query(win, right, &bytes, &unit, &q));
  if (bytes > 0) q[0] += 0.5;
  CHECK_MPI(MPI_Win_sync(win));
  CHECK_MPI(MPI_Barrier(node));
  CHECK_MPI(MPI_Win_sync(win));
  if (mine > 0) CHECK(base[0] == rank * 100 + (size > 1 || rank != 1 ? 0.5 : 0));
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  MPI_Comm node;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  check_context("contiguous");
  exercise(node, 0);
  check_context("alloc_shared_noncontig");
  exercise(node, 1);

  /* MPI_Win_allocate memory is shared on a node too; MPI_Win_create memory is not. */
  check_context("shared_query on other flavors");
  int rank;
  MPI_Comm_rank(node, &rank);
  int* base = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, node, &base, &win));
  *base = 42 + rank;
  CHECK_MPI(MPI_Barrier(node));
  MPI_Aint bytes = 0;
  int unit = 0;
  int* p = NULL;
  CHECK_MPI(MPI_Win_shared_query(win, 0, &bytes, &unit, &p));
  CHECK(bytes == sizeof(int) && *p == 42);
  CHECK_MPI(MPI_Barrier(node));
  CHECK_MPI(MPI_Win_free(&win));
  int own = 0;
  CHECK_MPI(MPI_Win_create(&own, sizeof own, sizeof own, MPI_INFO_NULL, node, &win));
  CHECK_MPI(MPI_Win_shared_query(win, 0, &bytes, &unit, &p));
  CHECK(bytes == 0 && p == NULL);
  CHECK_MPI(MPI_Win_free(&win));
  MPI_Comm_free(&node);
  MPI_Finalize();
  if (rank == 0) printf("rma_shared: ok\n");
  return 0;
}
