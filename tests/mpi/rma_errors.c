/* One-sided error paths, each with its error class and a message naming the function: a
 * displacement beyond the window, access without an epoch, unlock without lock, a bad lock
 * type or assertion, attach to a non-dynamic window, a user operation in an accumulate, a
 * signature mismatch, freeing a window while locked, an invalid window handle, and a user
 * error handler on a window. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int handler_calls = 0;
static MPI_Win handler_win = MPI_WIN_NULL;
static void on_error(MPI_Win* win, int* code, ...) {
  ++handler_calls;
  handler_win = *win;
  (void)code;
}

static void user_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)in, (void)inout, (void)len, (void)type;
}

/* rc must be of class `cls` with a message that names `fn`. */
static void expect(int rc, int cls, const char* fn) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  check_context("expecting class %d from %s, got %d: %s", cls, fn, error_class(rc), text);
  CHECK(error_class(rc) == cls);
  CHECK(strstr(text, fn) != NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int* mem = NULL;
  MPI_Win win;
  CHECK_MPI(
      MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  int v[8] = {0};

  expect(MPI_Put(v, 1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC, "MPI_Put");
  CHECK_MPI(MPI_Win_fence(0, win));
  expect(MPI_Put(v, 2, MPI_INT, 0, 3, 2, MPI_INT, win), MPI_ERR_RMA_RANGE, "MPI_Put");
  expect(MPI_Get(v, 1, MPI_INT, 0, 4, 1, MPI_INT, win), MPI_ERR_RMA_RANGE, "MPI_Get");
  expect(MPI_Put(v, 1, MPI_INT, 0, -1, 1, MPI_INT, win), MPI_ERR_DISP, "MPI_Put");
  expect(MPI_Put(v, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK, "MPI_Put");
  expect(MPI_Put(v, 2, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_TYPE, "MPI_Put");
  MPI_Op op;
  MPI_Op_create(user_sum, 1, &op);
  expect(MPI_Accumulate(v, 1, MPI_INT, 0, 0, 1, MPI_INT, op, win), MPI_ERR_OP, "MPI_Accumulate");
  MPI_Op_free(&op);
  expect(MPI_Accumulate(v, 1, MPI_INT, 0, 0, 1, MPI_FLOAT, MPI_SUM, win), MPI_ERR_TYPE,
         "MPI_Accumulate");
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
  expect(MPI_Win_fence(12345, win), MPI_ERR_ASSERT, "MPI_Win_fence");

  expect(MPI_Win_unlock(0, win), MPI_ERR_RMA_SYNC, "MPI_Win_unlock");
  expect(MPI_Win_lock(99, 0, 0, win), MPI_ERR_LOCKTYPE, "MPI_Win_lock");
  expect(MPI_Win_flush(0, win), MPI_ERR_RMA_SYNC, "MPI_Win_flush");
  expect(MPI_Win_complete(win), MPI_ERR_RMA_SYNC, "MPI_Win_complete");
  expect(MPI_Win_wait(win), MPI_ERR_RMA_SYNC, "MPI_Win_wait");
  expect(MPI_Win_attach(win, v, sizeof v), MPI_ERR_RMA_FLAVOR, "MPI_Win_attach");
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
  expect(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win), MPI_ERR_RMA_SYNC, "MPI_Win_lock");
  expect(MPI_Win_free(&win), MPI_ERR_RMA_SYNC, "MPI_Win_free");
  CHECK(win != MPI_WIN_NULL);
  CHECK_MPI(MPI_Win_unlock(rank, win));

  /* A user handler gets the window and the code. */
  MPI_Errhandler eh;
  CHECK_MPI(MPI_Win_create_errhandler(on_error, &eh));
  CHECK_MPI(MPI_Win_set_errhandler(win, eh));
  CHECK_MPI(MPI_Errhandler_free(&eh));
  const int rc = MPI_Win_unlock(0, win);
  CHECK(error_class(rc) == MPI_ERR_RMA_SYNC);
  CHECK(handler_calls == 1 && handler_win == win);
  CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
  CHECK(handler_calls == 2);

  /* Dynamic windows: detach of memory never attached; overlapping attach. */
  MPI_Win dyn;
  CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn));
  CHECK_MPI(MPI_Win_set_errhandler(dyn, MPI_ERRORS_RETURN));
  expect(MPI_Win_detach(dyn, v), MPI_ERR_RMA_ATTACH, "MPI_Win_detach");
  CHECK_MPI(MPI_Win_attach(dyn, v, sizeof v));
  expect(MPI_Win_attach(dyn, v + 2, sizeof(int)), MPI_ERR_RMA_ATTACH, "MPI_Win_attach");
  CHECK_MPI(MPI_Win_detach(dyn, v));
  CHECK_MPI(MPI_Win_free(&dyn));

  /* Handles and creation arguments. */
  MPI_Win bogus = 4242;
  expect(MPI_Win_fence(0, bogus), MPI_ERR_WIN, "MPI_Win_fence");
  expect(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN, "MPI_Win_fence");
  MPI_Win w2;
  expect(MPI_Win_create(v, -8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w2), MPI_ERR_SIZE,
         "MPI_Win_create");
  expect(MPI_Win_create(v, 8, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &w2), MPI_ERR_DISP,
         "MPI_Win_create");
  expect(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_NULL, &mem, &w2), MPI_ERR_COMM,
         "MPI_Win_allocate");
  CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  if (rank == 0) printf("rma_errors: ok\n");
  return 0;
}
