/* MPI-IO data access: explicit offsets, individual file pointers and collective (_all) forms,
 * blocking, nonblocking and split, through the default view and through a strided view with
 * holes; memory-side derived types; status counts, including short reads at the end of file. */
#include "expect_error.h"
#include "io_common.h"

enum { B = 5, TILES = 4 }; /* a rank's block of ints per tile, and tiles per rank */

static int value(int rank, int i) { return mix3(rank, i, 77) % 100000 + 1; }

/* Strided view: tile t holds every rank's block of B ints then one hole int, rank by rank. */
static void set_strided_view(MPI_File fh, int rank, int size) {
  MPI_Datatype block, filetype;
  MPI_Type_contiguous(B, MPI_INT, &block);
  MPI_Type_create_resized(block, 0, (MPI_Aint)(size * (B + 1) * sizeof(int)), &filetype);
  MPI_Type_commit(&filetype);
  CHECK_MPI(MPI_File_set_view(fh, (MPI_Offset)(rank * (B + 1) * sizeof(int)), MPI_INT, filetype,
                              "native", MPI_INFO_NULL));
  MPI_Type_free(&block);
  MPI_Type_free(&filetype); /* the view keeps its own */
}

/* The whole file, read by every rank through the default view: blocks in place, holes zero. */
static void check_strided_file(MPI_File fh, int size) {
  const int n = TILES * size * (B + 1);
  int* all = calloc((size_t)n, sizeof(int));
  MPI_Status st;
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  CHECK_MPI(MPI_File_read_at_all(fh, 0, all, n, MPI_INT, &st));
  int got = -1;
  MPI_Get_count(&st, MPI_INT, &got);
  CHECK(got == n - 1); /* the last hole lies beyond the end of the file */
  for (int t = 0; t < TILES; ++t)
    for (int r = 0; r < size; ++r)
      for (int j = 0; j <= B; ++j) {
        const int at = (t * size + r) * (B + 1) + j;
        check_context("file int %d (tile %d, rank %d, j %d)", at, t, r, j);
        CHECK(all[at] == (j == B ? 0 : value(r, t * B + j)));
      }
  check_context("%s", "");
  free(all);
}

static void strided(const char* path, int rank, int size) {
  MPI_File fh;
  int mine[TILES * B], back[TILES * B];
  for (int i = 0; i < TILES * B; ++i) mine[i] = value(rank, i);
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                          &fh));
  CHECK_MPI(MPI_File_set_size(fh, 0));
  set_strided_view(fh, rank, size);
  /* individual pointer, two independent writes */
  MPI_Status st;
  CHECK_MPI(MPI_File_write(fh, mine, B + 2, MPI_INT, &st));
  CHECK(status_bytes(&st) == (int)((B + 2) * sizeof(int)));
  CHECK_MPI(MPI_File_write(fh, mine + B + 2, TILES * B - B - 2, MPI_INT, MPI_STATUS_IGNORE));
  MPI_Offset pos = -1, byte = -1;
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == TILES * B);
  CHECK_MPI(MPI_File_get_byte_offset(fh, B + 1, &byte));
  CHECK(byte == (MPI_Offset)(((size + rank) * (B + 1) + 1) * sizeof(int)));
  MPI_Barrier(MPI_COMM_WORLD);
  check_strided_file(fh, size);

  /* collective, individual pointer: rewrite, read back with read_all after a seek */
  set_strided_view(fh, rank, size);
  CHECK_MPI(MPI_File_write_all(fh, mine, TILES * B, MPI_INT, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_File_seek(fh, -TILES * B, MPI_SEEK_CUR));
  memset(back, 0, sizeof back);
  CHECK_MPI(MPI_File_read_all(fh, back, TILES * B, MPI_INT, &st));
  check_ints(back, mine, TILES * B, "read_all");
  /* explicit offsets through the view: etype units */
  memset(back, 0, sizeof back);
  CHECK_MPI(MPI_File_read_at(fh, B, back, B, MPI_INT, &st));
  check_ints(back, mine + B, B, "read_at through the view");
  MPI_Offset disp;
  MPI_Datatype etype, filetype;
  char rep[MPI_MAX_DATAREP_STRING];
  CHECK_MPI(MPI_File_get_view(fh, &disp, &etype, &filetype, rep));
  int size_ft = 0;
  MPI_Type_size(filetype, &size_ft);
  CHECK(disp == (MPI_Offset)(rank * (B + 1) * sizeof(int)) && etype == MPI_INT &&
        size_ft == B * (int)sizeof(int) && strcmp(rep, "native") == 0);
  MPI_Type_free(&filetype);
  CHECK_MPI(MPI_File_close(&fh));
}

static void contiguous(const char* path, int rank, int size) {
  MPI_File fh;
  enum { N = 64 };
  int mine[N], back[2 * N];
  for (int i = 0; i < N; ++i) mine[i] = value(rank, i);
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                          &fh));
  CHECK_MPI(MPI_File_set_size(fh, 0));
  const MPI_Offset at = (MPI_Offset)rank * N * sizeof(int);
  MPI_Status st;
  CHECK_MPI(MPI_File_write_at(fh, at, mine, N / 2, MPI_INT, &st));
  CHECK_MPI(MPI_File_write_at_all(fh, at + N / 2 * sizeof(int), mine + N / 2, N / 2, MPI_INT,
                                  &st));
  int n = -1;
  MPI_Get_count(&st, MPI_INT, &n);
  CHECK(n == N / 2);
  MPI_Barrier(MPI_COMM_WORLD);
  /* the right neighbour's data */
  const int right = (rank + 1) % size;
  CHECK_MPI(MPI_File_read_at(fh, (MPI_Offset)right * N * sizeof(int), back, N, MPI_INT, &st));
  for (int i = 0; i < N; ++i) CHECK(back[i] == value(right, i));

  /* memory-side vector: every other int of a buffer, into contiguous file bytes */
  MPI_Datatype every_other;
  MPI_Type_vector(N, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  int spread[2 * N];
  for (int i = 0; i < 2 * N; ++i) spread[i] = i % 2 ? -1 : value(rank, i / 2) + 7;
  CHECK_MPI(MPI_File_write_at_all(fh, at, spread, 1, every_other, &st));
  int elements = -1;
  MPI_Get_elements(&st, every_other, &elements);
  CHECK(elements == N);
  for (int i = 0; i < 2 * N; ++i) back[i] = -5;
  CHECK_MPI(MPI_File_read_at_all(fh, at, back, 1, every_other, &st));
  for (int i = 0; i < 2 * N; ++i) CHECK(back[i] == (i % 2 ? -5 : value(rank, i / 2) + 7));
  MPI_Type_free(&every_other);

  /* short read at the end of the file: 14 bytes remain of the 4 ints asked for */
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_set_size(fh, (MPI_Offset)size * N * sizeof(int) + 14 - 16));
  MPI_Offset end = 0;
  CHECK_MPI(MPI_File_get_size(fh, &end));
  CHECK_MPI(MPI_File_read_at(fh, end - 14, back, 4, MPI_INT, &st));
  MPI_Get_count(&st, MPI_INT, &n);
  CHECK(n == MPI_UNDEFINED);
  MPI_Get_elements(&st, MPI_INT, &elements); /* 3.5 ints: not a whole number of elements */
  CHECK(elements == MPI_UNDEFINED);
  CHECK(status_bytes(&st) == 14);
  CHECK_MPI(MPI_File_read_at(fh, end + 100, back, 4, MPI_INT, &st));
  MPI_Get_count(&st, MPI_INT, &n);
  CHECK(n == 0);
  /* reading with the individual pointer past the end moves it by what was read */
  CHECK_MPI(MPI_File_seek(fh, -8, MPI_SEEK_END));
  CHECK_MPI(MPI_File_read(fh, back, 4, MPI_INT, &st));
  MPI_Offset pos = 0;
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == end && status_bytes(&st) == 8);
  EXPECT_ERROR(MPI_File_read_at(fh, -1, back, 1, MPI_INT, &st), MPI_ERR_ARG, "MPI_File_read_at",
               "offset=-1");
  CHECK_MPI(MPI_File_close(&fh));
}

static void nonblocking_and_split(const char* path, int rank, int size) {
  MPI_File fh;
  enum { N = 1000 };
  static int mine[N], back[N];
  for (int i = 0; i < N; ++i) mine[i] = value(rank, i);
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                          &fh));
  const MPI_Offset at = (MPI_Offset)rank * N * sizeof(int);
  MPI_Request req[2];
  MPI_Status st[2];
  CHECK_MPI(MPI_File_iwrite_at(fh, at, mine, N / 2, MPI_INT, &req[0]));
  CHECK_MPI(MPI_File_iwrite_at_all(fh, at + N / 2 * sizeof(int), mine + N / 2, N / 2, MPI_INT,
                                   &req[1]));
  int sum = 0, one = 1; /* other communication while the writes are pending */
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(sum == size);
  CHECK_MPI(MPI_Waitall(2, req, st));
  int n = -1;
  MPI_Get_count(&st[1], MPI_INT, &n);
  CHECK(n == N / 2);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_seek(fh, at, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_iread(fh, back, N / 2, MPI_INT, &req[0]));
  int flag = 0;
  while (!flag) CHECK_MPI(MPI_Test(&req[0], &flag, &st[0]));
  CHECK_MPI(MPI_File_iread_all(fh, back + N / 2, N / 2, MPI_INT, &req[1]));
  CHECK_MPI(MPI_Wait(&req[1], &st[1]));
  check_ints(back, mine, N, "iread + iread_all");
  CHECK_MPI(MPI_File_seek(fh, at, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_iwrite(fh, mine, 1, MPI_INT, &req[0]));
  CHECK_MPI(MPI_File_iwrite_all(fh, mine, 1, MPI_INT, &req[1]));
  CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
  CHECK_MPI(MPI_File_iread_at_all(fh, at, back, 1, MPI_INT, &req[0]));
  CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
  CHECK(back[0] == mine[0]);

  /* split collectives */
  CHECK_MPI(MPI_File_write_at_all_begin(fh, at, mine, N, MPI_INT));
  EXPECT_ERROR(MPI_File_read_all_end(fh, back, &st[0]), MPI_ERR_OTHER, "MPI_File_read_all_end",
               "MPI_File_write_at_all_end");
  CHECK_MPI(MPI_File_write_at_all_end(fh, mine, &st[0]));
  MPI_Get_count(&st[0], MPI_INT, &n);
  CHECK(n == N);
  memset(back, 0, sizeof back);
  CHECK_MPI(MPI_File_seek(fh, at, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_read_all_begin(fh, back, N, MPI_INT));
  CHECK_MPI(MPI_File_read_all_end(fh, back, &st[0]));
  check_ints(back, mine, N, "read_all_begin/end");
  CHECK_MPI(MPI_File_seek(fh, at, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_write_all_begin_c(fh, mine, 2, MPI_INT));
  CHECK_MPI(MPI_File_write_all_end(fh, mine, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_File_read_at_all_begin(fh, at, back, N, MPI_INT));
  CHECK_MPI(MPI_File_read_at_all_end(fh, back, MPI_STATUS_IGNORE));
  check_ints(back, mine, N, "read_at_all_begin/end");
  EXPECT_ERROR(MPI_File_read_at_all_end(fh, back, MPI_STATUS_IGNORE), MPI_ERR_OTHER,
               "MPI_File_read_at_all_end", "no split collective");
  CHECK_MPI(MPI_File_close(&fh));
}

int main(int argc, char** argv) {
  char path[300];
  int size;
  const int rank = io_start(&argc, &argv, "access.dat", path, sizeof path, &size);
  contiguous(path, rank, size);
  strided(path, rank, size);
  nonblocking_and_split(path, rank, size);
  io_finish(rank, "io_access");
  return 0;
}
