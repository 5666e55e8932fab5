/* MPI_Allreduce, MPI_Iallreduce and MPI_Allreduce_init: every predefined op on every type it is
 * defined on (checked exactly), counts from 0 to about 1 MiB, MPI_IN_PLACE, MPI_Reduce_local
 * against the same references, bitwise-identical floating-point sums on every rank and run, and
 * the user-op checks of coll_userop.c. */
#include <stdlib.h>

#include "coll_ops.h"

static int rank, size;

static void allreduce(int form, const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm w = MPI_COMM_WORLD;
  if (form == FORM_BLOCKING) CHECK_MPI(MPI_Allreduce(sb, rb, n, t, op, w));
  if (form == FORM_NONBLOCKING) CHECK_MPI(MPI_Iallreduce(sb, rb, n, t, op, w, &req));
  if (form == FORM_PERSISTENT)
    CHECK_MPI(MPI_Allreduce_init(sb, rb, n, t, op, w, MPI_INFO_NULL, &req));
  finish_form(form, &req);
}

static void check_allreduce(int form, const struct type_case* tc, MPI_Op op, long n, int in_place,
                            int salt) {
  check_context("%s MPI_Allreduce with %s on %ld %s%s", form_name(form), op_name(op), n, tc->name,
                in_place ? ", MPI_IN_PLACE" : "");
  const size_t bytes = (size_t)n * tc->size;
  void* send = malloc(bytes + 1);
  unsigned char* recv = malloc(bytes + GUARD_BYTES);
  void* want = malloc(bytes + 1);
  CHECK(send && recv && want);
  op_input(tc, op, send, n, rank, size, salt);
  op_expected(tc, op, want, n, 0, size, size, salt);
  memset(recv, 0x5A, bytes);
  guard_set(recv + bytes);
  if (in_place) memcpy(recv, send, bytes);
  allreduce(form, in_place ? MPI_IN_PLACE : send, recv, (int)n, tc->type, op);
  op_check(tc, recv, want, n, "recvbuf");
  guard_check(recv + bytes, "recvbuf");
  if (!in_place) { /* the send buffer is only read */
    op_input(tc, op, want, n, rank, size, salt);
    op_check(tc, send, want, n, "sendbuf after the call");
  }
  free(send);
  free(recv);
  free(want);
}

/* MPI_Reduce_local against the reference, on the inputs of two ranks. */
static void check_reduce_local(const struct type_case* tc, MPI_Op op, long n) {
  check_context("MPI_Reduce_local with %s on %ld %s", op_name(op), n, tc->name);
  const size_t bytes = (size_t)n * tc->size;
  void* in = malloc(bytes + 1);
  void* inout = malloc(bytes + 1);
  void* want = malloc(bytes + 1);
  CHECK(in && inout && want);
  op_input(tc, op, in, n, 0, 2, 77);
  op_input(tc, op, inout, n, 1, 2, 77);
  op_expected(tc, op, want, n, 0, 2, 2, 77);
  CHECK_MPI(MPI_Reduce_local(in, inout, (int)n, tc->type, op));
  op_check(tc, inout, want, n, "inoutbuf");
  free(in);
  free(inout);
  free(want);
}

/* Sums of inexact doubles and floats: whatever order the algorithm adds in, every rank must end
 * with the same bits, and the same call again must give the same bits. */
static void check_reproducible(int form, MPI_Datatype type, long n, int salt) {
  const int elem = type == MPI_DOUBLE ? 8 : 4;
  check_context("%s MPI_Allreduce with MPI_SUM on %ld inexact %s: same bits everywhere, every time",
                form_name(form), n, type == MPI_DOUBLE ? "MPI_DOUBLE" : "MPI_FLOAT");
  const size_t bytes = (size_t)n * (size_t)elem;
  unsigned char* send = malloc(bytes + 1);
  unsigned char* first = malloc(bytes + 1);
  unsigned char* again = malloc(bytes + 1);
  unsigned char* root = malloc(bytes + 1);
  CHECK(send && first && again && root);
  for (long i = 0; i < n; ++i) {
    const double x = 1.0 / (mix3(rank, (int)i, salt) % 1000 + 3) * (i % 2 ? -1e3 : 1e-3);
    if (type == MPI_DOUBLE)
      ((double*)send)[i] = x;
    else
      ((float*)send)[i] = (float)x;
  }
  allreduce(form, send, first, (int)n, type, MPI_SUM);
  allreduce(form, send, again, (int)n, type, MPI_SUM);
  CHECK(memcmp(first, again, bytes) == 0);
  memcpy(root, first, bytes);
  CHECK_MPI(MPI_Bcast(root, (int)n, type, 0, MPI_COMM_WORLD));
  for (size_t b = 0; b < bytes; ++b) {
    if (root[b] != first[b]) {
      fprintf(stderr, "rank %d: element %zu differs from rank 0's (%s)\n", rank, b / (size_t)elem,
              check_context_);
      CHECK(0);
    }
  }
  free(send);
  free(first);
  free(again);
  free(root);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  world_ring(&rank, &size, NULL, NULL);
  errors_return();
  int salt = 1, call = 0;

  /* Every predefined op on every type it is defined on. */
  for (int t = 0; t < NUM_TYPE_CASES; ++t) {
    const struct type_case* tc = &kTypeCases[t];
    for (int k = 0; k < NUM_OPS; ++k) {
      if (!op_defined(tc, kOps[k])) continue;
      check_reduce_local(tc, kOps[k], 53);
      check_allreduce(call % NUM_FORMS, tc, kOps[k], call % 5 == 4 ? 1 : 37, call % 2, salt++);
      ++call;
    }
  }

  /* Counts around the rank count and block sizes, and about 1 MiB. */
  const struct type_case* ints = type_case(MPI_INT);
  const struct type_case* doubles = type_case(MPI_DOUBLE);
  const long counts[] = {0, 1, 2, 3, size - 1, size, size + 1, 2 * size + 1, 1001, 4099, 16411};
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
    for (int in_place = 0; in_place < 2; ++in_place) {
      check_allreduce(call++ % NUM_FORMS, ints, MPI_SUM, counts[c], in_place, salt++);
      check_allreduce(call++ % NUM_FORMS, doubles, MPI_MAX, counts[c], !in_place, salt++);
    }
  for (int form = 0; form < NUM_FORMS; ++form) /* about 1 MiB */
    check_allreduce(form, ints, MPI_SUM, large_count(form, 1, 262147), form == FORM_NONBLOCKING,
                    salt++);
  check_allreduce(FORM_BLOCKING, doubles, MPI_SUM, 40009, 0, salt++);
  check_allreduce(FORM_PERSISTENT, type_case(MPI_C_DOUBLE_COMPLEX), MPI_PROD, 8191, 0, salt++);
  check_allreduce(FORM_NONBLOCKING, type_case(MPI_DOUBLE_INT), MPI_MINLOC, 8191, 1, salt++);
  check_allreduce(FORM_BLOCKING, type_case(MPI_UNSIGNED_CHAR), MPI_BXOR, 100003, 1, salt++);

  /* Count 0 with no buffers at all. */
  check_context("MPI_Allreduce of 0 elements with NULL buffers");
  for (int form = 0; form < NUM_FORMS; ++form) allreduce(form, NULL, NULL, 0, MPI_INT, MPI_SUM);

  for (int form = 0; form < NUM_FORMS; ++form) {
    check_reproducible(form, MPI_DOUBLE, 1 + form * 20000, salt++);
    check_reproducible(form, MPI_FLOAT, 3 + form * 5000, salt++);
  }
  userop_tests("allreduce");
  MPI_Finalize();
  return 0;
}
