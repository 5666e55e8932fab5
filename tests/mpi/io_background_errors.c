/* Failures that nonblocking I/O meets in the background are reported when the request
 * completes, through the file's error handler (not MPI_COMM_SELF's), with a message naming the
 * file and the call that started the access: writes to /dev/full (every write fails with
 * ENOSPC: MPI_ERR_NO_SPACE) completed by MPI_Wait, MPI_Test, MPI_Waitall and a split
 * collective's _end, independent and collective (where every rank learns of the aggregator's
 * failure); a nonblocking collective write to a file opened MPI_MODE_RDONLY fails at MPI_Wait on
 * every rank. */
#include "expect_error.h"
#include "io_common.h"

static int handled = 0;     /* calls of the file error handler */
static MPI_File handled_fh; /* the file it was called for */

static void on_file_error(MPI_File* fh, int* code, ...) {
  (void)code;
  ++handled;
  handled_fh = *fh;
}

/* `rc` is an error of class `cls` the file's handler saw (once, for fh), whose message names
 * the completing call `fn`, the call that started it and the file. */
static void expect_background_error(int rc, int cls, MPI_File fh, const char* fn,
                                    const char* started, const char* file) {
  EXPECT_ERROR(rc, cls, fn, started);
  EXPECT_ERROR(rc, cls, fn, file);
  CHECK(handled == 1 && handled_fh == fh);
  handled = 0;
}

int main(int argc, char** argv) {
  char path[300];
  int size = 0;
  const int rank = io_start(&argc, &argv, "readonly.dat", path, sizeof path, &size);
  /* Errors must not reach MPI_COMM_SELF's handler (fatal by default) nor the world's. */
  MPI_Errhandler handler;
  CHECK_MPI(MPI_File_create_errhandler(on_file_error, &handler));

  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_cb_write", "enable"); /* rank 0 aggregates: others learn of it */
  MPI_File full;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, "/dev/full", MPI_MODE_WRONLY, info, &full));
  MPI_Info_free(&info);
  CHECK_MPI(MPI_File_set_errhandler(full, handler));
  char data[4096];
  memset(data, 'x', sizeof data);
  MPI_Request r[2];
  MPI_Status st[2];

  /* independent, completed by MPI_Wait */
  CHECK_MPI(MPI_File_iwrite_at(full, 0, data, sizeof data, MPI_BYTE, &r[0]));
  CHECK(handled == 0); /* nothing is known yet when the call returns */
  expect_background_error(MPI_Wait(&r[0], &st[0]), MPI_ERR_NO_SPACE, full, "MPI_Wait",
                          "MPI_File_iwrite_at", "/dev/full");
  CHECK(r[0] == MPI_REQUEST_NULL);

  /* independent, completed by MPI_Test */
  CHECK_MPI(MPI_File_iwrite(full, data, sizeof data, MPI_BYTE, &r[0]));
  int done = 0, rc = MPI_SUCCESS;
  while (!done && rc == MPI_SUCCESS) rc = MPI_Test(&r[0], &done, &st[0]);
  expect_background_error(rc, MPI_ERR_NO_SPACE, full, "MPI_Test", "MPI_File_iwrite", "/dev/full");

  /* collective, with an independent one beside it, completed by MPI_Waitall: the error is in
   * the failing request's status, and the call's class is MPI_ERR_IN_STATUS */
  CHECK_MPI(MPI_File_iwrite_at_all(full, rank * (MPI_Offset)sizeof data, data, sizeof data,
                                   MPI_BYTE, &r[0]));
  CHECK_MPI(MPI_File_iwrite_at(full, 0, data, 0, MPI_BYTE, &r[1])); /* nothing to write: fine */
  rc = MPI_Waitall(2, r, st);
  CHECK(error_class(rc) == MPI_ERR_IN_STATUS && handled == 1 && handled_fh == full);
  handled = 0;
  EXPECT_ERROR(st[0].MPI_ERROR, MPI_ERR_NO_SPACE, "MPI_File_iwrite_at_all", "/dev/full");
  CHECK(st[1].MPI_ERROR == MPI_SUCCESS);

  /* a split collective: its _end reports it */
  CHECK_MPI(MPI_File_write_at_all_begin(full, 0, data, sizeof data, MPI_BYTE));
  expect_background_error(MPI_File_write_at_all_end(full, data, &st[0]), MPI_ERR_NO_SPACE, full,
                          "MPI_File_write_at_all_end", "MPI_File_write_at_all_begin", "/dev/full");
  CHECK_MPI(MPI_File_close(&full));

  /* a collective write to a file opened read-only fails on every rank, at its completion */
  MPI_File ro;
  if (rank == 0) {
    FILE* f = fopen(path, "w");
    CHECK(f != NULL);
    fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &ro));
  CHECK_MPI(MPI_File_set_errhandler(ro, handler));
  CHECK_MPI(MPI_File_iwrite_all(ro, data, 16, MPI_BYTE, &r[0]));
  expect_background_error(MPI_Wait(&r[0], MPI_STATUS_IGNORE), MPI_ERR_READ_ONLY, ro, "MPI_Wait",
                          "MPI_File_iwrite_all", path);
  CHECK_MPI(MPI_File_close(&ro));
  MPI_Errhandler_free(&handler);
  io_finish(rank, "io_background_errors");
  return 0;
}
