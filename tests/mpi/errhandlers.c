/* User error handlers: a handler that records the code and returns (on a bad call, and through
 * MPI_Comm_call_errhandler), MPI_ERRORS_RETURN against user handlers, a freed handler that stays
 * in use while set on a communicator, MPI_Comm_get_errhandler's new reference, handlers on
 * MPI_COMM_SELF catching errors that concern no communicator, and the error paths. */
#include "expect_error.h"

static int calls;
static int last_code;
static MPI_Comm last_comm;

static void record(MPI_Comm* comm, int* code, ...) {
  ++calls;
  last_comm = *comm;
  last_code = *code;
}

static void record_other(MPI_Comm* comm, int* code, ...) {
  (void)comm, (void)code;
  calls += 100;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  int buf = 0;

  check_context("a user handler records the code and returns");
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Comm_create_errhandler(record, &handler));
  CHECK(handler != MPI_ERRHANDLER_NULL);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler));
  int rc = MPI_Send(&buf, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD);
  CHECK(calls == 1 && last_comm == MPI_COMM_WORLD && last_code == rc);
  EXPECT_ERROR(rc, MPI_ERR_RANK, "MPI_Send", "dest=");
  CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER));
  CHECK(calls == 2 && last_code == MPI_ERR_OTHER && last_comm == MPI_COMM_WORLD);

  check_context("MPI_Comm_get_errhandler gives a reference to the user handler");
  MPI_Errhandler got = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
  CHECK(got == handler);
  CHECK_MPI(MPI_Errhandler_free(&got));
  CHECK(got == MPI_ERRHANDLER_NULL);

  check_context("a freed handler stays in use while set on a communicator");
  CHECK_MPI(MPI_Errhandler_free(&handler));
  CHECK(handler == MPI_ERRHANDLER_NULL);
  rc = MPI_Recv(&buf, 1, MPI_INT, 0, -7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(calls == 3 && last_code == rc);
  EXPECT_ERROR(rc, MPI_ERR_TAG, "MPI_Recv", "tag=-7");

  check_context("MPI_ERRORS_RETURN calls no handler");
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  EXPECT_ERROR(MPI_Send(&buf, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Send",
               "count=-1");
  CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER));
  CHECK(calls == 3);
  got = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
  CHECK(got == MPI_ERRORS_RETURN);
  CHECK_MPI(MPI_Errhandler_free(&got)); /* a predefined handler's reference: freed, still there */
  CHECK(got == MPI_ERRHANDLER_NULL);
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
  CHECK(got == MPI_ERRORS_RETURN);

  check_context("a handler on MPI_COMM_SELF gets errors that concern no communicator");
  MPI_Errhandler on_self = MPI_ERRHANDLER_NULL, other = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Comm_create_errhandler(record, &on_self));
  CHECK_MPI(MPI_Comm_create_errhandler(record_other, &other));
  CHECK(on_self != other);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, on_self));
  MPI_Info no_info = MPI_INFO_NULL;
  rc = MPI_Info_free(&no_info);
  CHECK(calls == 4 && last_comm == MPI_COMM_SELF && last_code == rc);
  EXPECT_ERROR(rc, MPI_ERR_INFO, "MPI_Info_free", "info=MPI_INFO_NULL");
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, other)); /* replaces, and releases on_self */
  CHECK_MPI(MPI_Errhandler_free(&on_self));
  CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_ARG));
  CHECK(calls == 104);
  CHECK_MPI(MPI_Errhandler_free(&other));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

  check_context("error paths");
  EXPECT_ERROR(MPI_Comm_set_errhandler(MPI_COMM_WORLD, 9999), MPI_ERR_ERRHANDLER,
               "MPI_Comm_set_errhandler", "errhandler=9999");
  EXPECT_ERROR(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ERRHANDLER,
               "MPI_Comm_set_errhandler", "errhandler=MPI_ERRHANDLER_NULL");
  EXPECT_ERROR(MPI_Comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN), MPI_ERR_COMM,
               "MPI_Comm_set_errhandler", "comm=MPI_COMM_NULL");
  EXPECT_ERROR(MPI_Comm_get_errhandler(MPI_COMM_WORLD, NULL), MPI_ERR_ARG,
               "MPI_Comm_get_errhandler", "errhandler=NULL");
  EXPECT_ERROR(MPI_Comm_create_errhandler(NULL, &got), MPI_ERR_ARG, "MPI_Comm_create_errhandler",
               "comm_errhandler_fn=NULL");
  EXPECT_ERROR(MPI_Comm_create_errhandler(record, NULL), MPI_ERR_ARG, "MPI_Comm_create_errhandler",
               "errhandler=NULL");
  MPI_Errhandler bogus = 4242;
  EXPECT_ERROR(MPI_Errhandler_free(&bogus), MPI_ERR_ERRHANDLER, "MPI_Errhandler_free",
               "errhandler=4242");
  CHECK(bogus == 4242);
  EXPECT_ERROR(MPI_Errhandler_free(NULL), MPI_ERR_ARG, "MPI_Errhandler_free", "errhandler=NULL");
  EXPECT_ERROR(MPI_Comm_call_errhandler(MPI_COMM_NULL, MPI_ERR_OTHER), MPI_ERR_COMM,
               "MPI_Comm_call_errhandler", "MPI_COMM_NULL");
  EXPECT_ERROR(MPI_Comm_call_errhandler(MPI_COMM_WORLD, -5), MPI_ERR_ARG,
               "MPI_Comm_call_errhandler", "errorcode=-5");
  CHECK(calls == 104);

  /* The communicator still works. */
  int v = rank, left = (rank - 1 + size) % size;
  CHECK_MPI(MPI_Sendrecv_replace(&v, 1, MPI_INT, (rank + 1) % size, 1, left, 1, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE));
  CHECK(v == left);
  MPI_Finalize();
  return 0;
}
