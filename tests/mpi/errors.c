/* Bad arguments return the right error class under MPI_ERRORS_RETURN, never crash; under Weft
 * the error string names the function, the argument and the value. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void expect(int rc, int cls, const char* function, const char* fragment) {
  CHECK(rc != MPI_SUCCESS);
  if (error_class(rc) != cls) {
    fprintf(stderr, "%s: got class %d, expected %d\n", function, error_class(rc), cls);
    CHECK(0);
  }
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  CHECK(MPI_Error_string(rc, text, &len) == MPI_SUCCESS && len > 0 && (int)strlen(text) == len);
#ifdef WEFT_MPI
  if (strstr(text, function) == NULL || strstr(text, fragment) == NULL) {
    fprintf(stderr, "error string '%s' lacks '%s' or '%s'\n", text, function, fragment);
    CHECK(0);
  }
#else
  (void)fragment;
#endif
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  MPI_Errhandler handler;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &handler);
  CHECK(handler == MPI_ERRORS_ARE_FATAL);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &handler);
  CHECK(handler == MPI_ERRORS_RETURN);

  int buf[4] = {0};
  char expected[64];
  snprintf(expected, sizeof expected, "dest=%d", size + 5);
  expect(MPI_Send(buf, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "MPI_Send",
         expected);
  expect(MPI_Send(buf, 1, MPI_INT, -7, 0, MPI_COMM_WORLD), MPI_ERR_RANK, "MPI_Send", "dest=-7");
  expect(MPI_Recv(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_RANK,
         "MPI_Recv", "source=");
  expect(MPI_Send(buf, 1, MPI_INT, 0, -1, MPI_COMM_WORLD), MPI_ERR_TAG, "MPI_Send", "tag=-1");
  int* tag_ub = NULL;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
  CHECK(flag && *tag_ub >= 32767);
  if (*tag_ub < INT_MAX) /* Open MPI's bound is INT_MAX: nothing lies above it */
    expect(MPI_Isend(buf, 1, MPI_INT, 0, *tag_ub + 1, MPI_COMM_WORLD, &(MPI_Request){0}),
           MPI_ERR_TAG, "MPI_Isend", "tag=");
  expect(MPI_Send(buf, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "MPI_Send", "count=-1");
  expect(MPI_Send(buf, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Send",
         "MPI_DATATYPE_NULL");
  expect(MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM, "MPI_Send", "MPI_COMM_NULL");
  expect(MPI_Send(NULL, 3, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER, "MPI_Send", "NULL");
  expect(MPI_Irecv(buf, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, &(MPI_Request){0}), MPI_ERR_TAG,
         "MPI_Irecv", "tag=-5");
  expect(MPI_Comm_rank(MPI_COMM_NULL, &flag), MPI_ERR_COMM, "MPI_Comm_rank", "MPI_COMM_NULL");
  MPI_Request null_request = MPI_REQUEST_NULL;
  expect(MPI_Request_free(&null_request), MPI_ERR_REQUEST, "MPI_Request_free", "MPI_REQUEST_NULL");
#ifdef WEFT_MPI
  /* Weft's handles are checked by value, so a garbage handle is an error, not a crash. */
  expect(MPI_Send(buf, 1, (MPI_Datatype)12345, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "MPI_Send",
         "12345");
  expect(MPI_Send(buf, 1, MPI_INT, 0, 0, (MPI_Comm)777), MPI_ERR_COMM, "MPI_Send", "777");
#endif
  /* Every class has a description. */
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  CHECK(MPI_Error_string(MPI_ERR_TRUNCATE, text, &len) == MPI_SUCCESS && len > 0);
  /* The communicator still works after all those errors. */
  int v = rank;
  MPI_Sendrecv_replace(&v, 1, MPI_INT, (rank + 1) % size, 1, (rank - 1 + size) % size, 1,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(v == (rank - 1 + size) % size);
  MPI_Finalize();
  return 0;
}
