/* MPI_Reduce, MPI_Ireduce and MPI_Reduce_init: predefined ops on every type (checked exactly),
 * several roots, counts from 0 to about 1 MiB, MPI_IN_PLACE at the root, arguments that only
 * the root reads left NULL elsewhere, bitwise-identical floating-point sums run after run, and
 * the user-op checks of coll_userop.c. */
#include <stdlib.h>

#include "coll_ops.h"

static int rank, size;

static void reduce(int form, const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, int root) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm w = MPI_COMM_WORLD;
  if (form == FORM_BLOCKING) CHECK_MPI(MPI_Reduce(sb, rb, n, t, op, root, w));
  if (form == FORM_NONBLOCKING) CHECK_MPI(MPI_Ireduce(sb, rb, n, t, op, root, w, &req));
  if (form == FORM_PERSISTENT)
    CHECK_MPI(MPI_Reduce_init(sb, rb, n, t, op, root, w, MPI_INFO_NULL, &req));
  finish_form(form, &req);
}

/* One reduction to root; the other ranks pass recvbuf NULL (significant only at the root). */
static void check_reduce(int form, const struct type_case* tc, MPI_Op op, long n, int root,
                         int in_place, int salt) {
  check_context("%s MPI_Reduce with %s on %ld %s to root %d%s", form_name(form), op_name(op), n,
                tc->name, root, in_place ? ", MPI_IN_PLACE at the root" : "");
  const size_t bytes = (size_t)n * tc->size;
  void* send = malloc(bytes + 1);
  unsigned char* recv = malloc(bytes + GUARD_BYTES);
  void* want = malloc(bytes + 1);
  CHECK(send && recv && want);
  op_input(tc, op, send, n, rank, size, salt);
  memset(recv, 0x5A, bytes);
  guard_set(recv + bytes);
  if (rank == root) {
    if (in_place) memcpy(recv, send, bytes);
    reduce(form, in_place ? MPI_IN_PLACE : send, recv, (int)n, tc->type, op, root);
    op_expected(tc, op, want, n, 0, size, size, salt);
    op_check(tc, recv, want, n, "recvbuf at the root");
    guard_check(recv + bytes, "recvbuf");
  } else {
    reduce(form, send, NULL, (int)n, tc->type, op, root);
  }
  if (!(rank == root && in_place)) { /* the send buffer is only read */
    op_input(tc, op, want, n, rank, size, salt);
    op_check(tc, send, want, n, "sendbuf after the call");
  }
  free(send);
  free(recv);
  free(want);
}

/* Inexact double sums: the same call gives the same bits at the root every time. */
static void check_reproducible(int form, long n, int root, int salt) {
  check_context("%s MPI_Reduce with MPI_SUM on %ld inexact MPI_DOUBLE to root %d, twice",
                form_name(form), n, root);
  double* send = malloc((size_t)n * sizeof(double) + 1);
  double* first = malloc((size_t)n * sizeof(double) + 1);
  double* again = malloc((size_t)n * sizeof(double) + 1);
  CHECK(send && first && again);
  for (long i = 0; i < n; ++i)
    send[i] = 1.0 / (mix3(rank, (int)i, salt) % 1000 + 3) * (i % 2 ? -1e3 : 1e-3);
  reduce(form, send, first, (int)n, MPI_DOUBLE, MPI_SUM, root);
  reduce(form, send, again, (int)n, MPI_DOUBLE, MPI_SUM, root);
  if (rank == root) CHECK(memcmp(first, again, (size_t)n * sizeof(double)) == 0);
  free(send);
  free(first);
  free(again);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  world_ring(&rank, &size, NULL, NULL);
  errors_return();
  int roots[4];
  const int nroots = root_set(size, roots);
  int salt = 1, call = 0;

  /* Every type, each with one of its ops in turn (coll_allreduce takes every pair). */
  for (int t = 0; t < NUM_TYPE_CASES; ++t) {
    const struct type_case* tc = &kTypeCases[t];
    int k = t % NUM_OPS;
    while (!op_defined(tc, kOps[k])) k = (k + 1) % NUM_OPS;
    check_reduce(call % NUM_FORMS, tc, kOps[k], 37, roots[t % nroots], t % 2, salt++);
    ++call;
  }

  /* Counts around the rank count and block sizes at every root of root_set. */
  const struct type_case* ints = type_case(MPI_INT);
  const struct type_case* doubles = type_case(MPI_DOUBLE);
  const long counts[] = {0, 1, 2, 3, size - 1, size, size + 1, 2 * size + 1, 1001, 4099};
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
    for (int r = 0; r < nroots; ++r) {
      check_reduce(call++ % NUM_FORMS, ints, MPI_SUM, counts[c], roots[r], (r + (int)c) % 2,
                   salt++);
      if (c % 3 == 0)
        check_reduce(call++ % NUM_FORMS, doubles, MPI_MIN, counts[c], roots[r], r % 2, salt++);
    }
  /* About 1 MiB. */
  for (int form = 0; form < NUM_FORMS; ++form)
    check_reduce(form, ints, MPI_SUM, large_count(form, 2, 262147), size - 1 - form % size,
                 form == FORM_BLOCKING, salt++);
  check_reduce(FORM_NONBLOCKING, doubles, MPI_PROD, 40009, size / 2, 0, salt++);
  check_reduce(FORM_PERSISTENT, type_case(MPI_LONG_LONG), MPI_BXOR, 30011, size / 2, 1, salt++);

  /* Count 0 with no buffers at all. */
  check_context("MPI_Reduce of 0 elements with NULL buffers");
  for (int form = 0; form < NUM_FORMS; ++form)
    reduce(form, NULL, NULL, 0, MPI_INT, MPI_SUM, size - 1);

  for (int form = 0; form < NUM_FORMS; ++form)
    check_reproducible(form, 1 + form * 20000, (form + 1) % size, salt++);
  userop_tests("reduce");
  MPI_Finalize();
  return 0;
}
