/* One-sided error paths, each with its error class and a message naming the function: a
 * displacement beyond the window, access without an epoch, unlock without lock, a bad lock
 * type or assertion, attach to a non-dynamic window, a user operation in an accumulate, a
 * signature mismatch, freeing a window while locked, an invalid window handle, and a user
 * error handler on a window; by messages, requests outside a dynamic window's attached memory,
 * reported by the origin's next synchronization. */
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

  /* Requests by messages (every target but the caller on "another node") that reach outside
   * the memory a target attached: the target leaves them unapplied and the origin's unlock,
   * flush or fence says so (within a node, cross-memory attach reaches any mapped address). */
  const char* path = getenv("WEFT_RMA_PATH");
  if (size > 1 && path != NULL && strcmp(path, "auto") != 0) {
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn));
    CHECK_MPI(MPI_Win_set_errhandler(dyn, MPI_ERRORS_RETURN));
    int* block = calloc(8, sizeof(int));
    CHECK_MPI(MPI_Win_attach(dyn, block, 4 * sizeof(int))); /* the first half only */
    MPI_Aint at = 0;
    CHECK_MPI(MPI_Get_address(block, &at));
    CHECK_MPI(MPI_Bcast(&at, 1, MPI_AINT, 0, MPI_COMM_WORLD));
    const int one = 1;
    if (rank == 1) {
      /* A put past the attached half: reported by the unlock. */
      CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, dyn));
      CHECK_MPI(MPI_Put(&one, 1, MPI_INT, 0, at + 5 * (MPI_Aint)sizeof(int), 1, MPI_INT, dyn));
      expect(MPI_Win_unlock(0, dyn), MPI_ERR_RMA_RANGE, "MPI_Win_unlock");
      /* A get straddling the end, then one inside: the flush reports the first, once. */
      int got[2] = {-1, -1};
      CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, dyn));
      CHECK_MPI(MPI_Get(got, 2, MPI_INT, 0, at + 3 * (MPI_Aint)sizeof(int), 2, MPI_INT, dyn));
      CHECK_MPI(MPI_Put(&one, 1, MPI_INT, 0, at, 1, MPI_INT, dyn));
      expect(MPI_Win_flush(0, dyn), MPI_ERR_RMA_RANGE, "MPI_Win_flush");
      CHECK(got[0] == 0 && got[1] == 0);
      CHECK_MPI(MPI_Win_flush(0, dyn));
      CHECK_MPI(MPI_Win_unlock(0, dyn));
    }
    /* In a fence epoch, by the closing fence, on the origin only. */
    CHECK_MPI(MPI_Win_fence(0, dyn));
    if (rank == 1)
      CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, 0, at - (MPI_Aint)sizeof(int), 1, MPI_INT, MPI_SUM,
                               dyn));
    const int fenced = MPI_Win_fence(0, dyn);
    if (rank == 1)
      expect(fenced, MPI_ERR_RMA_RANGE, "MPI_Win_fence");
    else
      CHECK_MPI(fenced);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    /* Only the put inside the attached half was applied. */
    if (rank == 0) {
      check_context("rank 0's block after the refused requests");
      CHECK(block[0] == 1);
      for (int i = 1; i < 8; ++i) CHECK(block[i] == 0);
    }
    CHECK_MPI(MPI_Win_detach(dyn, block));
    CHECK_MPI(MPI_Win_free(&dyn));
    free(block);
  }

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
