/* WEFT_CHECK_COLLECTIVES=1 (set by the test's environment): ranks that call mismatched
 * collectives on purpose all get MPI_ERR_OTHER naming both calls, and matching calls (the same
 * signature through different datatypes and the large-count forms included) pass with correct
 * results. Needs 2+ ranks. */
#include <stdlib.h>

#include "check.h"

static int rank, size, last;

/* `rc` failed with MPI_ERR_OTHER, and its message says this rank called `mine` and rank `other`
 * called `theirs`. */
static void expect_mismatch(int rc, const char* fn, const char* mine, int other,
                            const char* theirs) {
  char text[MPI_MAX_ERROR_STRING] = "", want[2 * MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  snprintf(want, sizeof want, "%s: collective mismatch on MPI_COMM_WORLD (call #", fn);
  const int named_fn = strstr(text, want) != NULL;
  snprintf(want, sizeof want, "this rank (%d) called %s but rank %d called %s", rank, mine, other,
           theirs);
  if (rc == MPI_SUCCESS || error_class(rc) != MPI_ERR_OTHER || !named_fn ||
      strstr(text, want) == NULL) {
    fprintf(stderr, "rank %d: got %d (class %d) '%s', expected '%s'\n", rank, rc, error_class(rc),
            text, want);
    CHECK(0);
  }
}

/* A correct call after a reported mismatch still runs and gives the right result. */
static void check_allreduce_works(void) {
  int in[4] = {rank, 1, 2, 3}, out[4] = {0};
  CHECK_MPI(MPI_Allreduce(in, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  const int want[4] = {size * (size - 1) / 2, size, 2 * size, 3 * size};
  check_ints(out, want, 4, "allreduce");
}

static void different_kinds(void) {
  check_context("the last rank calls MPI_Allreduce, the others MPI_Bcast");
  int buf[4] = {0}, out[4];
  const char* bcast = "MPI_Bcast(count=4, MPI_INT, root=0)";
  const char* allreduce = "MPI_Allreduce(count=4, MPI_INT, MPI_SUM)";
  if (rank == last) {
    expect_mismatch(MPI_Allreduce(buf, out, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce",
                    allreduce, 0, bcast);
  } else {
    expect_mismatch(MPI_Bcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast", bcast, last,
                    allreduce);
  }
  check_allreduce_works();
}

static void different_roots(void) {
  check_context("rank 1 broadcasts from root 1, the others from root 0");
  int buf[2] = {0};
  const int root = rank == 1 ? 1 : 0;
  const char* from0 = "MPI_Bcast(count=2, MPI_INT, root=0)";
  const char* from1 = "MPI_Bcast(count=2, MPI_INT, root=1)";
  const int rc = MPI_Bcast(buf, 2, MPI_INT, root, MPI_COMM_WORLD);
  if (rank == 1) {
    expect_mismatch(rc, "MPI_Bcast", from1, 0, from0);
  } else {
    expect_mismatch(rc, "MPI_Bcast", from0, 1, from1);
  }
  check_allreduce_works();
}

static void different_counts_and_ops(void) {
  check_context("rank 0 reduces 3 ints, the others 4");
  int in[4] = {1, 1, 1, 1}, out[4];
  const char* three = "MPI_Reduce(count=3, MPI_INT, MPI_SUM, root=0)";
  const char* four = "MPI_Reduce(count=4, MPI_INT, MPI_SUM, root=0)";
  int rc = MPI_Reduce(in, out, rank == 0 ? 3 : 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  expect_mismatch(rc, "MPI_Reduce", rank == 0 ? three : four, rank == 0 ? 1 : 0,
                  rank == 0 ? four : three);

  check_context("the last rank allreduces with MPI_MAX, the others with MPI_SUM");
  const char* sum = "MPI_Allreduce(count=4, MPI_INT, MPI_SUM)";
  const char* max = "MPI_Allreduce(count=4, MPI_INT, MPI_MAX)";
  rc = MPI_Allreduce(in, out, 4, MPI_INT, rank == last ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD);
  expect_mismatch(rc, "MPI_Allreduce", rank == last ? max : sum, rank == last ? 0 : last,
                  rank == last ? sum : max);

  check_context("rank 0 gathers 2 doubles per rank, the others send 1");
  double mine[2] = {1, 2}, all[16];
  const char* two = "MPI_Gather(count=2, MPI_DOUBLE, root=0)";
  const char* one = "MPI_Gather(count=1, MPI_DOUBLE, root=0)";
  rc = MPI_Gather(mine, rank == 0 ? 2 : 1, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  expect_mismatch(rc, "MPI_Gather", rank == 0 ? two : one, rank == 0 ? 1 : 0,
                  rank == 0 ? one : two);
  check_allreduce_works();
}

static void different_forms(void) {
  check_context("rank 0 calls MPI_Ibarrier, the others MPI_Barrier");
  if (rank == 0) {
    MPI_Request r = MPI_REQUEST_NULL;
    expect_mismatch(MPI_Ibarrier(MPI_COMM_WORLD, &r), "MPI_Ibarrier", "MPI_Ibarrier()", 1,
                    "MPI_Barrier()");
    CHECK(r == MPI_REQUEST_NULL);
  } else {
    expect_mismatch(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier", "MPI_Barrier()", 0,
                    "MPI_Ibarrier()");
  }

  check_context("in place at some ranks of MPI_Allreduce only");
  int buf[1] = {1}, out[1];
  const char* in_place = "MPI_Allreduce(MPI_IN_PLACE, count=1, MPI_INT, MPI_SUM)";
  const char* separate = "MPI_Allreduce(count=1, MPI_INT, MPI_SUM)";
  const int rc = rank == last
                     ? MPI_Allreduce(MPI_IN_PLACE, buf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD)
                     : MPI_Allreduce(buf, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  expect_mismatch(rc, "MPI_Allreduce", rank == last ? in_place : separate, rank == last ? 0 : last,
                  rank == last ? separate : in_place);

  check_context("persistent requests started in different orders");
  int data[3] = {rank, rank, rank}, sums[3];
  MPI_Request allreduce, bcast;
  CHECK_MPI(MPI_Allreduce_init(data, sums, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &allreduce));
  CHECK_MPI(MPI_Bcast_init(data, 3, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &bcast));
  const char* pa = "MPI_Allreduce_init(count=3, MPI_INT, MPI_SUM)";
  const char* pb = "MPI_Bcast_init(count=3, MPI_INT, root=0)";
  if (rank == 0) {
    MPI_Request start = allreduce;
    expect_mismatch(MPI_Start(&start), "MPI_Start", pa, 1, pb);
  } else {
    MPI_Request start = bcast;
    expect_mismatch(MPI_Start(&start), "MPI_Start", pb, 0, pa);
  }
  /* Started in the same order, they run. */
  CHECK_MPI(MPI_Start(&allreduce));
  CHECK_MPI(MPI_Wait(&allreduce, MPI_STATUS_IGNORE));
  for (int i = 0; i < 3; ++i) CHECK(sums[i] == size * (size - 1) / 2);
  CHECK_MPI(MPI_Request_free(&allreduce));
  CHECK_MPI(MPI_Request_free(&bcast));
  check_allreduce_works();
}

/* Matching calls pass: the same type signature through different datatypes, v-variants with
 * per-rank counts, a nonblocking call, a user op, and calls on a derived communicator. */
static void matching_calls(void) {
  check_context("matching calls");
  MPI_Datatype four;
  CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &four));
  CHECK_MPI(MPI_Type_commit(&four));
  int buf[4] = {0};
  if (rank == 0)
    for (int i = 0; i < 4; ++i) buf[i] = 10 + i;
  CHECK_MPI(rank == 0 ? MPI_Bcast(buf, 1, four, 0, MPI_COMM_WORLD)
                      : MPI_Bcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD));
  const int want[4] = {10, 11, 12, 13};
  check_ints(buf, want, 4, "bcast");
  CHECK_MPI(MPI_Type_free(&four));
  /* The large-count form matches the plain one. */
  for (int i = 0; i < 4; ++i) buf[i] = rank == last ? 20 + i : 0;
  CHECK_MPI(rank == 0 ? MPI_Bcast_c(buf, 4, MPI_INT, last, MPI_COMM_WORLD)
                      : MPI_Bcast(buf, 4, MPI_INT, last, MPI_COMM_WORLD));
  const int want_c[4] = {20, 21, 22, 23};
  check_ints(buf, want_c, 4, "bcast_c");

  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  int total = 0;
  for (int i = 0; i < size; ++i) {
    counts[i] = i + 1;
    displs[i] = total;
    total += i + 1;
  }
  int* all = malloc(sizeof(int) * (size_t)total);
  int* mine = malloc(sizeof(int) * (size_t)(rank + 1));
  for (int i = 0; i <= rank; ++i) mine[i] = rank;
  CHECK_MPI(MPI_Allgatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD));
  for (int i = 0; i < size; ++i)
    for (int k = 0; k < counts[i]; ++k) CHECK(all[displs[i] + k] == i);
  free(all);
  free(mine);
  free(counts);
  free(displs);

  MPI_Request r;
  int x = rank, y = -1;
  CHECK_MPI(MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK(y == last);

  MPI_Comm half;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
  MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
  CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, half));
  int parity_sum = 0;
  for (int i = rank % 2; i < size; i += 2) parity_sum += i;
  CHECK(x == parity_sum);
  CHECK_MPI(MPI_Barrier(half));
  CHECK_MPI(MPI_Comm_free(&half));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  last = size - 1;
  const char* setting = getenv("WEFT_CHECK_COLLECTIVES");
  CHECK(setting != NULL && strcmp(setting, "1") == 0);
  CHECK(size >= 2);
  matching_calls();
  different_kinds();
  different_roots();
  different_counts_and_ops();
  different_forms();
  matching_calls();
  MPI_Finalize();
  return 0;
}
