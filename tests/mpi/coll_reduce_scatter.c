/* MPI_Reduce_scatter(_block), their MPI_I* and _init forms: equal and uneven blocks (zeros,
 * one rank with everything, about 1 MiB in all), MPI_IN_PLACE, several ops and element sizes;
 * each rank gets exactly its block of the reduction. Then the user-op checks of coll_userop.c. */
#include <stdlib.h>

#include "coll_ops.h"

static int rank, size;

static void reduce_scatter(int form, const void* sb, void* rb, const int* counts, MPI_Datatype t,
                           MPI_Op op) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm w = MPI_COMM_WORLD;
  if (form == FORM_BLOCKING) CHECK_MPI(MPI_Reduce_scatter(sb, rb, counts, t, op, w));
  if (form == FORM_NONBLOCKING) CHECK_MPI(MPI_Ireduce_scatter(sb, rb, counts, t, op, w, &req));
  if (form == FORM_PERSISTENT)
    CHECK_MPI(MPI_Reduce_scatter_init(sb, rb, counts, t, op, w, MPI_INFO_NULL, &req));
  finish_form(form, &req);
}

static void reduce_scatter_block(int form, const void* sb, void* rb, int n, MPI_Datatype t,
                                 MPI_Op op) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm w = MPI_COMM_WORLD;
  if (form == FORM_BLOCKING) CHECK_MPI(MPI_Reduce_scatter_block(sb, rb, n, t, op, w));
  if (form == FORM_NONBLOCKING) CHECK_MPI(MPI_Ireduce_scatter_block(sb, rb, n, t, op, w, &req));
  if (form == FORM_PERSISTENT)
    CHECK_MPI(MPI_Reduce_scatter_block_init(sb, rb, n, t, op, w, MPI_INFO_NULL, &req));
  finish_form(form, &req);
}

/* counts NULL: MPI_Reduce_scatter_block with `block` elements each; else MPI_Reduce_scatter. */
static void check_case(int form, const struct type_case* tc, MPI_Op op, const int* counts,
                       int block, int in_place, int salt) {
  long total = 0, mine = counts ? counts[rank] : block, offset = 0;
  for (int r = 0; r < size; ++r) {
    if (r == rank) offset = total;
    total += counts ? counts[r] : block;
  }
  check_context("%s %s with %s on %s, %ld elements in all, %ld here at %ld%s", form_name(form),
                counts ? "MPI_Reduce_scatter" : "MPI_Reduce_scatter_block", op_name(op), tc->name,
                total, mine, offset, in_place ? ", MPI_IN_PLACE" : "");
  const size_t esz = tc->size;
  unsigned char* send = malloc((size_t)total * esz + 1);
  unsigned char* want = malloc((size_t)total * esz + 1);
  /* in place, recvbuf holds the whole input vector; otherwise only this rank's block */
  const size_t recv_bytes = (size_t)(in_place ? total : mine) * esz;
  unsigned char* recv = malloc(recv_bytes + GUARD_BYTES);
  CHECK(send && want && recv);
  op_input(tc, op, send, total, rank, size, salt);
  op_expected(tc, op, want, total, 0, size, size, salt);
  memset(recv, 0x5A, recv_bytes);
  guard_set(recv + recv_bytes);
  if (in_place) memcpy(recv, send, recv_bytes);
  const void* sb = in_place ? MPI_IN_PLACE : send;
  if (counts)
    reduce_scatter(form, sb, recv, counts, tc->type, op);
  else
    reduce_scatter_block(form, sb, recv, block, tc->type, op);
  op_check(tc, recv, want + (size_t)offset * esz, mine, "this rank's block in recvbuf");
  guard_check(recv + recv_bytes, "recvbuf");
  if (!in_place) { /* the send buffer is only read */
    op_input(tc, op, want, total, rank, size, salt);
    op_check(tc, send, want, total, "sendbuf after the call");
  }
  free(send);
  free(want);
  free(recv);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  world_ring(&rank, &size, NULL, NULL);
  errors_return();
  int salt = 1, call = 0;
  const struct type_case* cases[] = {type_case(MPI_INT),        type_case(MPI_DOUBLE),
                                     type_case(MPI_UNSIGNED),   type_case(MPI_C_DOUBLE_COMPLEX),
                                     type_case(MPI_DOUBLE_INT), type_case(MPI_LONG_DOUBLE),
                                     type_case(MPI_SHORT),      type_case(MPI_C_BOOL)};
  const MPI_Op ops[] = {MPI_SUM,    MPI_MAX, MPI_BXOR, MPI_PROD,
                        MPI_MAXLOC, MPI_SUM, MPI_MIN,  MPI_LXOR};
  enum { NUM_CASES = sizeof ops / sizeof ops[0] };

  /* Equal blocks. */
  const int blocks[] = {0, 1, 2, 3, 7, 1001};
  for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; ++b)
    for (int in_place = 0; in_place < 2; ++in_place) {
      const int k = (call / 2) % NUM_CASES;
      check_case(call++ % NUM_FORMS, cases[k], ops[k], NULL, blocks[b], in_place, salt++);
    }
  for (int k = 0; k < NUM_CASES; ++k)
    check_case(call++ % NUM_FORMS, cases[k], ops[k], NULL, 13, k % 2, salt++);
  for (int form = 0; form < NUM_FORMS; ++form)
    check_case(form, cases[form], ops[form], NULL, (int)large_count(form, 1, (1 << 18) / size),
               form == 1, salt++);

  /* Uneven blocks: with zeros, all on one rank, none on one rank, equal but via counts. */
  int* counts = malloc((size_t)size * sizeof(int));
  int* displs = malloc((size_t)size * sizeof(int));
  CHECK(counts && displs);
  for (int kind = 0; kind < 4; ++kind)
    for (int in_place = 0; in_place < 2; ++in_place)
      for (int scale = 1; scale <= 41; scale += 40) {
        vector_layout(size, kind, (kind + scale) % size, scale, counts, displs);
        const int k = (call / 3) % NUM_CASES;
        check_case(call++ % NUM_FORMS, cases[k], ops[k], counts, 0, in_place, salt++);
      }
  for (int form = 0; form < NUM_FORMS; ++form) {
    vector_layout(size, form == 2 ? 1 : 0, form % size,
                  (int)large_count(form, 2, (1 << 18) / size / 2 + 1), counts, displs);
    check_case(form, cases[0], ops[0], counts, 0, form == FORM_PERSISTENT, salt++);
  }
  free(counts);
  free(displs);
  userop_tests("reduce_scatter");
  MPI_Finalize();
  return 0;
}
