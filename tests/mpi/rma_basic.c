/* One-sided basics in every window flavor (create, allocate, dynamic) under fence: each rank
 * puts into its right neighbour, gets from its left, accumulates into rank 0, and uses the
 * request-based forms; MPI_PROC_NULL targets move nothing. */
#include <stdlib.h>

#include "check.h"

enum { N = 64 };

/* A window of N ints in the given flavor; for dynamic windows the memory is attached and its
 * address, which targets use as displacement, is allgathered into addrs. */
static MPI_Win make_window(int flavor, int** base, MPI_Aint* addrs) {
  MPI_Win win;
  const MPI_Aint bytes = N * sizeof(int);
  if (flavor == MPI_WIN_FLAVOR_CREATE) {
    CHECK_MPI(MPI_Alloc_mem(bytes, MPI_INFO_NULL, base));
    CHECK_MPI(MPI_Win_create(*base, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  } else if (flavor == MPI_WIN_FLAVOR_ALLOCATE) {
    CHECK_MPI(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, base, &win));
  } else {
    *base = malloc(bytes);
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_attach(win, *base, bytes));
  }
  MPI_Aint mine = 0;
  MPI_Get_address(*base, &mine);
  CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD));
  int* flavor_attr = NULL;
  int flag = 0;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor_attr, &flag));
  CHECK(flag && *flavor_attr == flavor);
  return win;
}

static void free_window(int flavor, MPI_Win* win, int* base) {
  if (flavor == MPI_WIN_FLAVOR_DYNAMIC) CHECK_MPI(MPI_Win_detach(*win, base));
  CHECK_MPI(MPI_Win_free(win));
  CHECK(*win == MPI_WIN_NULL);
  if (flavor == MPI_WIN_FLAVOR_CREATE) MPI_Free_mem(base);
  if (flavor == MPI_WIN_FLAVOR_DYNAMIC) free(base);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Aint* addrs = malloc(sizeof(MPI_Aint) * (size_t)size);
  const int flavors[] = {MPI_WIN_FLAVOR_CREATE, MPI_WIN_FLAVOR_ALLOCATE, MPI_WIN_FLAVOR_DYNAMIC};
  for (int f = 0; f < 3; ++f) {
    const int flavor = flavors[f];
    check_context("flavor %d", flavor);
    int* base = NULL;
    MPI_Win win = make_window(flavor, &base, addrs);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    for (int i = 0; i < N; ++i) base[i] = -1;
      /* Displacements: in ints for create/allocate, absolute addresses for dynamic. */
#define DISP(r, i) \
  (flavor == MPI_WIN_FLAVOR_DYNAMIC ? addrs[r] + (MPI_Aint)((i) * sizeof(int)) : (MPI_Aint)(i))

    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    int out[N];
    for (int i = 0; i < N; ++i) out[i] = rank * 1000 + i;
    /* The first half by put, the second by Rput. */
    CHECK_MPI(MPI_Put(out, N / 2, MPI_INT, right, DISP(right, 0), N / 2, MPI_INT, win));
    MPI_Request req;
    CHECK_MPI(MPI_Rput(out + N / 2, N / 2, MPI_INT, right, DISP(right, N / 2), N / 2, MPI_INT, win,
                       &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Put(out, N, MPI_INT, MPI_PROC_NULL, 0, N, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < N; ++i) CHECK(base[i] == left * 1000 + i);

    /* Get the left neighbour's window (which holds its left neighbour's values). */
    int in[N];
    CHECK_MPI(MPI_Get(in, N, MPI_INT, left, DISP(left, 0), N, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    const int left2 = (left + size - 1) % size;
    for (int i = 0; i < N; ++i) CHECK(in[i] == left2 * 1000 + i);
    CHECK_MPI(MPI_Rget(in, 1, MPI_INT, rank, DISP(rank, 3), 1, MPI_INT, win, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(in[0] == left * 1000 + 3);
    CHECK_MPI(MPI_Win_fence(0, win));

    /* Everyone adds (rank + 1) into rank 0's elements; then a replace on element 0 by rank 0. */
    for (int i = 0; i < N; ++i) base[i] = i;
    CHECK_MPI(MPI_Win_fence(0, win));
    int add[N];
    for (int i = 0; i < N; ++i) add[i] = rank + 1;
    CHECK_MPI(MPI_Accumulate(add, N, MPI_INT, 0, DISP(0, 0), N, MPI_INT, MPI_SUM, win));
    CHECK_MPI(MPI_Raccumulate(add, 1, MPI_INT, 0, DISP(0, 1), 1, MPI_INT, MPI_MAX, win, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Win_fence(0, win));
    const int sum = size * (size + 1) / 2;
    if (rank == 0) {
      CHECK(base[0] == sum);
      CHECK(base[1] == 1 + sum); /* max(1 + sum, any rank + 1) */
      for (int i = 2; i < N; ++i) CHECK(base[i] == i + sum);
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    /* Get_accumulate: fetch the old value while adding. */
    int old = -1, one = 1;
    CHECK_MPI(MPI_Get_accumulate(&one, 1, MPI_INT, &old, 1, MPI_INT, 0, DISP(0, 5), 1, MPI_INT,
                                 MPI_SUM, win));
    CHECK(old >= 5 + sum && old < 5 + sum + size);
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    if (rank == 0) CHECK(base[5] == 5 + sum + size);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    free_window(flavor, &win, base);
  }
  free(addrs);
  MPI_Finalize();
  if (rank == 0) printf("rma_basic: ok\n");
  return 0;
}
