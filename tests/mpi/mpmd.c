/* MPMD under weftrun: weftrun -n A ./mpmd ctx0 A - : -n B -wdir DIR -env MPMD_CONTEXT ctx1 ./mpmd ctx1 A DIR
 * Each rank checks MPI_APPNUM (its app context's index), that the contexts' ranks are numbered in
 * order (the first A ranks are context 0), its working directory and its context's environment;
 * all ranks share one MPI_COMM_WORLD and reduce over it. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures = 0;
#define CHECK(cond, ...)                                      \
  do {                                                        \
    if (!(cond)) {                                            \
      fprintf(stderr, "rank %d: ", rank);                     \
      fprintf(stderr, __VA_ARGS__);                           \
      fprintf(stderr, "\n");                                  \
      failures++;                                             \
    }                                                         \
  } while (0)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 4) {
    fprintf(stderr, "usage: mpmd CONTEXT FIRST_COUNT DIR|-\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int context = strcmp(argv[1], "ctx0") == 0 ? 0 : 1;
  const int first_count = atoi(argv[2]);

  int* appnum = NULL;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
  CHECK(flag && appnum != NULL, "MPI_APPNUM is not set");
  const int mine = flag ? *appnum : -1;
  CHECK(mine == context, "MPI_APPNUM is %d, expected %d (argv[1]=%s)", mine, context, argv[1]);
  CHECK(context == (rank < first_count ? 0 : 1), "rank %d belongs to context %d", rank, context);

  char cwd[4096];
  if (strcmp(argv[3], "-") != 0) {
    CHECK(getcwd(cwd, sizeof cwd) != NULL && strcmp(cwd, argv[3]) == 0,
          "working directory is %s, expected %s", cwd, argv[3]);
  }
  const char* env = getenv("MPMD_CONTEXT");
  if (context == 1) {
    CHECK(env != NULL && strcmp(env, "ctx1") == 0, "MPMD_CONTEXT is %s", env ? env : "(unset)");
  } else {
    CHECK(env == NULL, "context 0 got context 1's MPMD_CONTEXT=%s", env);
  }

  /* One world: every rank sees every context's count. */
  int counts[2] = {context == 0, context == 1}, totals[2];
  MPI_Allreduce(counts, totals, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(totals[0] == first_count && totals[1] == size - first_count,
        "contexts have %d and %d ranks, expected %d and %d", totals[0], totals[1], first_count,
        size - first_count);

  int all_failures = 0;
  MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(all_failures == 0 ? "mpmd: ok\n" : "mpmd: %d failures\n", all_failures);
  MPI_Finalize();
  return all_failures == 0 ? 0 : 1;
}
