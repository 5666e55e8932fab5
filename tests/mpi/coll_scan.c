/* MPI_Scan and MPI_Exscan in all three forms: prefix reductions with several predefined ops and
 * element sizes, counts from 0 to about 1 MiB, MPI_IN_PLACE; Exscan leaves rank 0's recvbuf as
 * it was; then the user-op checks of coll_userop.c. Argument: "scan" or "exscan" for only one. */
#include <stdlib.h>

#include "coll_ops.h"

static int rank, size;

static void scan(int exclusive, int form, const void* sb, void* rb, int n, MPI_Datatype t,
                 MPI_Op op) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Info i = MPI_INFO_NULL;
  if (!exclusive) {
    if (form == FORM_BLOCKING) CHECK_MPI(MPI_Scan(sb, rb, n, t, op, w));
    if (form == FORM_NONBLOCKING) CHECK_MPI(MPI_Iscan(sb, rb, n, t, op, w, &req));
    if (form == FORM_PERSISTENT) CHECK_MPI(MPI_Scan_init(sb, rb, n, t, op, w, i, &req));
  } else {
    if (form == FORM_BLOCKING) CHECK_MPI(MPI_Exscan(sb, rb, n, t, op, w));
    if (form == FORM_NONBLOCKING) CHECK_MPI(MPI_Iexscan(sb, rb, n, t, op, w, &req));
    if (form == FORM_PERSISTENT) CHECK_MPI(MPI_Exscan_init(sb, rb, n, t, op, w, i, &req));
  }
  finish_form(form, &req);
}

static void check_scan(int exclusive, int form, const struct type_case* tc, MPI_Op op, long n,
                       int in_place, int salt) {
  check_context("%s %s with %s on %ld %s%s", form_name(form), exclusive ? "MPI_Exscan" : "MPI_Scan",
                op_name(op), n, tc->name, in_place ? ", MPI_IN_PLACE" : "");
  const size_t bytes = (size_t)n * tc->size;
  void* send = malloc(bytes + 1);
  unsigned char* recv = malloc(bytes + GUARD_BYTES);
  unsigned char* want = malloc(bytes + 1);
  CHECK(send && recv && want);
  op_input(tc, op, send, n, rank, size, salt);
  memset(recv, 0x5A, bytes);
  guard_set(recv + bytes);
  if (in_place) memcpy(recv, send, bytes);
  scan(exclusive, form, in_place ? MPI_IN_PLACE : send, recv, (int)n, tc->type, op);
  if (exclusive && rank == 0) {
    /* undefined result: the library leaves recvbuf alone (in place: this rank's input) */
    if (in_place) {
      op_input(tc, op, want, n, rank, size, salt);
      op_check(tc, recv, want, n, "rank 0's recvbuf (in place)");
    } else {
      for (size_t b = 0; b < bytes; ++b) CHECK(recv[b] == 0x5A);
    }
  } else {
    op_expected(tc, op, want, n, 0, exclusive ? rank : rank + 1, size, salt);
    op_check(tc, recv, want, n, "recvbuf");
  }
  guard_check(recv + bytes, "recvbuf");
  if (!in_place) { /* the send buffer is only read */
    op_input(tc, op, want, n, rank, size, salt);
    op_check(tc, send, want, n, "sendbuf after the call");
  }
  free(send);
  free(recv);
  free(want);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  world_ring(&rank, &size, NULL, NULL);
  errors_return();
  int salt = 1, call = 0;
  const struct type_case* cases[] = {type_case(MPI_INT),
                                     type_case(MPI_DOUBLE),
                                     type_case(MPI_UNSIGNED_LONG),
                                     type_case(MPI_C_FLOAT_COMPLEX),
                                     type_case(MPI_2INT),
                                     type_case(MPI_SIGNED_CHAR),
                                     type_case(MPI_LONG_DOUBLE_INT),
                                     type_case(MPI_BYTE),
                                     type_case(MPI_C_BOOL)};
  const MPI_Op ops[] = {MPI_SUM, MPI_MAX,    MPI_PROD, MPI_PROD, MPI_MINLOC,
                        MPI_MIN, MPI_MAXLOC, MPI_BOR,  MPI_LAND};
  enum { NUM_CASES = sizeof ops / sizeof ops[0] };

  for (int exclusive = 0; exclusive < 2; ++exclusive) {
    if (argc >= 2 && strcmp(argv[1], exclusive ? "exscan" : "scan") != 0) continue;
    for (int k = 0; k < NUM_CASES; ++k)
      for (int in_place = 0; in_place < 2; ++in_place)
        check_scan(exclusive, call++ % NUM_FORMS, cases[k], ops[k], 29, in_place, salt++);
    const long counts[] = {0, 1, 2, 3, size + 1, 1001, 4099};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
      for (int in_place = 0; in_place < 2; ++in_place)
        check_scan(exclusive, call++ % NUM_FORMS, cases[c % 2], ops[c % 2], counts[c], in_place,
                   salt++);
    check_scan(exclusive, 1 + exclusive, cases[0], MPI_SUM, 262147, exclusive, salt++); /* 1 MiB */
    check_scan(exclusive, 2 - exclusive, cases[1], MPI_MAX, 16411, !exclusive, salt++);
    check_context("%s of 0 elements with NULL buffers", exclusive ? "MPI_Exscan" : "MPI_Scan");
    for (int form = 0; form < NUM_FORMS; ++form)
      scan(exclusive, form, NULL, NULL, 0, MPI_INT, MPI_SUM);
    userop_tests(exclusive ? "exscan" : "scan");
  }
  MPI_Finalize();
  return 0;
}
