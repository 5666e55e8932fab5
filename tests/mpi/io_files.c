/* MPI-IO file manipulation: open with every access mode, close, delete, size, preallocate, group,
 * amode, hints, sync, atomicity, error handlers on files and MPI_FILE_NULL, c2f/f2c; and every
 * error class the I/O chapter defines that a POSIX file can produce, each with its message. */
#include <sys/stat.h>

#include "expect_error.h"
#include "io_common.h"

static int handler_calls, handler_class;
static MPI_File handler_file = -1;
static void count_errors(MPI_File* fh, int* code, ...) {
  ++handler_calls;
  handler_file = *fh;
  MPI_Error_class(*code, &handler_class);
}

static void check_hint(MPI_File fh, const char* key, const char* want) {
  MPI_Info info;
  char value[64] = "";
  int flag = 0;
  CHECK_MPI(MPI_File_get_info(fh, &info));
  MPI_Info_get(info, key, sizeof value - 1, value, &flag);
  check_context("hint %s", key);
  CHECK(flag && strcmp(value, want) == 0);
  MPI_Info_free(&info);
}

/* The documented default of cb_nodes: on each node one aggregator per core, at most one per
 * rank. */
static const char* default_aggregators(void) {
  static char text[32];
  MPI_Comm node;
  int on_node = 0, node_rank = 0, mine = 0, total = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &on_node);
  MPI_Comm_rank(node, &node_rank);
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (node_rank == 0) mine = cores < on_node ? (int)cores : on_node;
  MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm_free(&node);
  snprintf(text, sizeof text, "%d", total);
  return text;
}

static void sizes_and_hints(const char* path, int size) {
  MPI_File fh;
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "striping_factor", "4");
  MPI_Info_set(info, "cb_buffer_size", "1048576");
  MPI_Info_set(info, "romio_cb_write", "disable");
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path,
                          MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR | MPI_MODE_UNIQUE_OPEN,
                          info, &fh));
  MPI_Info_free(&info);
  int amode = 0, flag = -1, cmp = -1;
  CHECK_MPI(MPI_File_get_amode(fh, &amode));
  CHECK(amode == (MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR | MPI_MODE_UNIQUE_OPEN));
  MPI_Group g, world;
  CHECK_MPI(MPI_File_get_group(fh, &g));
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_compare(g, world, &cmp);
  CHECK(cmp == MPI_IDENT);
  MPI_Group_free(&g);
  MPI_Group_free(&world);
  check_hint(fh, "striping_factor", "4");
  check_hint(fh, "cb_buffer_size", "1048576");
  check_hint(fh, "romio_cb_write", "disable");
  check_hint(fh, "romio_cb_read", "automatic");
  check_hint(fh, "cb_nodes", default_aggregators());
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_cb_read", "enable");
  CHECK_MPI(MPI_File_set_info(fh, info));
  MPI_Info_free(&info);
  check_hint(fh, "romio_cb_read", "enable");

  CHECK_MPI(MPI_File_get_atomicity(fh, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_File_set_atomicity(fh, 1));
  CHECK_MPI(MPI_File_get_atomicity(fh, &flag));
  CHECK(flag == 1);
  MPI_Offset n = -1;
  CHECK_MPI(MPI_File_set_size(fh, 1000));
  CHECK_MPI(MPI_File_get_size(fh, &n));
  CHECK(n == 1000);
  CHECK_MPI(MPI_File_preallocate(fh, 2000));
  CHECK_MPI(MPI_File_get_size(fh, &n));
  CHECK(n == 2000);
  CHECK_MPI(MPI_File_preallocate(fh, 10));
  CHECK_MPI(MPI_File_get_size(fh, &n));
  CHECK(n == 2000);
  CHECK_MPI(MPI_File_set_size(fh, 10 * size));
  CHECK_MPI(MPI_File_sync(fh));
  CHECK_MPI(MPI_File_get_size(fh, &n));
  CHECK(n == 10 * size);
  CHECK(MPI_File_f2c(MPI_File_c2f(fh)) == fh);
  CHECK_MPI(MPI_File_close(&fh));
  CHECK(fh == MPI_FILE_NULL);
}

static void special_modes(const char* path, int rank, int size) {
  MPI_File fh;
  MPI_Offset pos = -1;
  /* APPEND: both pointers start at the end (the file has 10 * size bytes). */
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_APPEND, MPI_INFO_NULL,
                          &fh));
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == 10 * size);
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == 10 * size);
  CHECK_MPI(MPI_File_close(&fh));
  /* SEQUENTIAL: shared pointer only. */
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL,
                          MPI_INFO_NULL, &fh));
  char c = 'a';
  EXPECT_ERROR(MPI_File_write_at(fh, 0, &c, 1, MPI_CHAR, MPI_STATUS_IGNORE),
               MPI_ERR_UNSUPPORTED_OPERATION, "MPI_File_write_at", "MPI_MODE_SEQUENTIAL");
  EXPECT_ERROR(MPI_File_seek(fh, 0, MPI_SEEK_SET), MPI_ERR_UNSUPPORTED_OPERATION,
               "MPI_File_seek", "MPI_MODE_SEQUENTIAL");
  CHECK_MPI(MPI_File_write_shared(fh, &c, 1, MPI_CHAR, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_File_close(&fh));
  /* DELETE_ON_CLOSE: gone afterwards. */
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                          MPI_INFO_NULL, &fh));
  CHECK_MPI(MPI_File_close(&fh));
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(access(path, F_OK) != 0);
  (void)rank;
}

static void error_classes(const char* path, int rank, int size) {
  char dir[300];
  MPI_File fh = MPI_FILE_NULL, second = MPI_FILE_NULL;
  EXPECT_ERROR(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
               MPI_ERR_NO_SUCH_FILE, "MPI_File_open", path);
  CHECK(fh == MPI_FILE_NULL);
  EXPECT_ERROR(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_CREATE,
                             MPI_INFO_NULL, &fh),
               MPI_ERR_AMODE, "MPI_File_open", "MPI_MODE_RDONLY with MPI_MODE_CREATE");
  EXPECT_ERROR(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_WRONLY,
                             MPI_INFO_NULL, &fh),
               MPI_ERR_AMODE, "MPI_File_open", "exactly one of");
  EXPECT_ERROR(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL,
                             MPI_INFO_NULL, &fh),
               MPI_ERR_AMODE, "MPI_File_open", "MPI_MODE_SEQUENTIAL");
  io_path(dir, sizeof dir, "");
  EXPECT_ERROR(MPI_File_open(MPI_COMM_WORLD, dir, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh),
               MPI_ERR_BAD_FILE, "MPI_File_open", "is a directory");
  if (size > 1) {
    const int amode = MPI_MODE_RDWR | MPI_MODE_CREATE | (rank == 1 ? MPI_MODE_APPEND : 0);
    EXPECT_ERROR(MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, &fh),
                 MPI_ERR_NOT_SAME, "MPI_File_open", "amode");
  }

  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                          &fh));
  EXPECT_ERROR(MPI_File_open(MPI_COMM_WORLD, path,
                             MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL,
                             &second),
               MPI_ERR_FILE_EXISTS, "MPI_File_open", path);
  int buf[4] = {0};
  EXPECT_ERROR(MPI_File_read_at(fh, 0, buf, 4, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_ACCESS,
               "MPI_File_read_at", "MPI_MODE_WRONLY");
  EXPECT_ERROR(MPI_File_delete(path, MPI_INFO_NULL), MPI_ERR_FILE_IN_USE, "MPI_File_delete",
               path);
  EXPECT_ERROR(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-rep", MPI_INFO_NULL),
               MPI_ERR_UNSUPPORTED_DATAREP, "MPI_File_set_view", "no-such-rep");
  if (sizeof(long) == 8) {
    CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
    long big = 1L << 40;
    EXPECT_ERROR(MPI_File_write_at(fh, 0, &big, 1, MPI_LONG, MPI_STATUS_IGNORE),
                 MPI_ERR_CONVERSION, "MPI_File_write_at", "");
  }
  CHECK_MPI(MPI_File_close(&fh));
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
  EXPECT_ERROR(MPI_File_write_at(fh, 0, buf, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_READ_ONLY,
               "MPI_File_write_at", path);
  EXPECT_ERROR(MPI_File_set_size(fh, 0), MPI_ERR_READ_ONLY, "MPI_File_set_size", path);
  CHECK_MPI(MPI_File_close(&fh));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_ERROR(MPI_File_delete(path, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE, "MPI_File_delete",
               path);

  /* A full device: no space; its size cannot be set. */
  if (access("/dev/full", W_OK) == 0) {
    CHECK_MPI(MPI_File_open(MPI_COMM_SELF, "/dev/full", MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    EXPECT_ERROR(MPI_File_write(fh, buf, 4, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_NO_SPACE,
                 "MPI_File_write", "/dev/full");
    EXPECT_ERROR(MPI_File_set_size(fh, 5), MPI_ERR_IO, "MPI_File_set_size", "/dev/full");
    CHECK_MPI(MPI_File_close(&fh));
  }
  EXPECT_ERROR(MPI_File_get_size(MPI_FILE_NULL, NULL), MPI_ERR_FILE, "MPI_File_get_size",
               "MPI_FILE_NULL");
  EXPECT_ERROR(MPI_Register_datarep("external32", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL,
                                    (MPI_Datarep_extent_function*)1, NULL),
               MPI_ERR_DUP_DATAREP, "MPI_Register_datarep", "external32");
}

static void errhandlers(const char* path) {
  MPI_Errhandler eh, got;
  CHECK_MPI(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
  CHECK(got == MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&got);
  CHECK_MPI(MPI_File_create_errhandler(count_errors, &eh));
  CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
  MPI_File fh;
  const int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  CHECK(error_class(rc) == MPI_ERR_NO_SUCH_FILE);
  CHECK(handler_calls == 1 && handler_file == MPI_FILE_NULL &&
        handler_class == MPI_ERR_NO_SUCH_FILE);
  /* A file opened now takes the handler. */
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR |
                          MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
  CHECK_MPI(MPI_File_get_errhandler(fh, &got));
  CHECK(got == eh);
  MPI_Errhandler_free(&got);
  CHECK(MPI_File_seek(fh, -5, MPI_SEEK_SET) != MPI_SUCCESS);
  CHECK(handler_calls == 2 && handler_file == fh && handler_class == MPI_ERR_ARG);
  CHECK_MPI(MPI_File_call_errhandler(fh, MPI_ERR_IO));
  CHECK(handler_calls == 3 && handler_class == MPI_ERR_IO);
  CHECK_MPI(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_File_close(&fh));
  CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Errhandler_free(&eh));
}

int main(int argc, char** argv) {
  char path[300];
  int size;
  const int rank = io_start(&argc, &argv, "files.dat", path, sizeof path, &size);
  sizes_and_hints(path, size);
  special_modes(path, rank, size);
  error_classes(path, rank, size);
  errhandlers(path);
  io_finish(rank, "io_files");
  return 0;
}
