/* Collective buffering (two-phase I/O): collective writes and reads through interleaved views
 * (a 3-D subarray cut along its fastest dimension, a strided view leaving holes) with
 * romio_cb_write/romio_cb_read forced on, forced off and automatic, cb_nodes 1 to 8, a
 * cb_buffer_size much smaller than the data (many rounds), file domains aligned to a
 * striping_unit (uneven domains, some empty), and interleaved pieces of 64 KiB (which
 * "automatic" leaves to each rank): the file must come out the same. */
#include "io_common.h"

enum { NZ = 4, NY = 5, NX = 3 }; /* a rank's block; the global array is NZ x NY x (NX * size) */

static int value(int rank, int i) { return mix3(rank, i, 31) % 1000000 + 1; }

typedef struct {
  const char* cb;     /* romio_cb_write and romio_cb_read */
  const char* nodes;  /* cb_nodes, or NULL */
  const char* buffer; /* cb_buffer_size, or NULL */
  const char* stripe; /* striping_unit (the file domains' alignment), or NULL */
} Config;

static MPI_File open_with(const char* path, const Config* c) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_cb_write", c->cb);
  MPI_Info_set(info, "romio_cb_read", c->cb);
  if (c->nodes) MPI_Info_set(info, "cb_nodes", c->nodes);
  if (c->buffer) MPI_Info_set(info, "cb_buffer_size", c->buffer);
  if (c->stripe) MPI_Info_set(info, "striping_unit", c->stripe);
  MPI_File fh;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
  MPI_Info_free(&info);
  MPI_Info used;
  char v[64];
  int flag = 0;
  CHECK_MPI(MPI_File_get_info(fh, &used));
  MPI_Info_get(used, "romio_cb_write", sizeof v - 1, v, &flag);
  CHECK(flag && strcmp(v, c->cb) == 0);
  if (c->nodes) {
    MPI_Info_get(used, "cb_nodes", sizeof v - 1, v, &flag);
    CHECK(flag && strcmp(v, c->nodes) == 0);
  }
  if (c->stripe) {
    MPI_Info_get(used, "striping_unit", sizeof v - 1, v, &flag);
    CHECK(flag && strcmp(v, c->stripe) == 0);
  }
  MPI_Info_free(&used);
  return fh;
}

/* The subarray view: this rank's NZ x NY x NX block of the global array. */
static void subarray_view(MPI_File fh, int rank, int size) {
  const int g[3] = {NZ, NY, NX * size}, s[3] = {NZ, NY, NX}, st[3] = {0, 0, NX * rank};
  MPI_Datatype t;
  MPI_Type_create_subarray(3, g, s, st, MPI_ORDER_C, MPI_INT, &t);
  MPI_Type_commit(&t);
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, t, "native", MPI_INFO_NULL));
  MPI_Type_free(&t);
}

/* The strided view: per tile, one int of each rank then two hole ints nobody writes. */
static void strided_view(MPI_File fh, int rank, int size) {
  io_view_one_int_in(fh, rank, size + 2);
}

/* One collective transfer of n ints at the start of the view in form `form` (0..3): explicit
 * offset, individual pointer, nonblocking, split. */
static void collective(MPI_File fh, int write, int form, int* buf, int n, MPI_Status* st) {
  MPI_Request rq;
  switch (form % 4) {
    case 0:
      CHECK_MPI(write ? MPI_File_write_at_all(fh, 0, buf, n, MPI_INT, st)
                      : MPI_File_read_at_all(fh, 0, buf, n, MPI_INT, st));
      break;
    case 1:
      CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_SET));
      CHECK_MPI(write ? MPI_File_write_all(fh, buf, n, MPI_INT, st)
                      : MPI_File_read_all(fh, buf, n, MPI_INT, st));
      break;
    case 2:
      CHECK_MPI(write ? MPI_File_iwrite_at_all(fh, 0, buf, n, MPI_INT, &rq)
                      : MPI_File_iread_at_all(fh, 0, buf, n, MPI_INT, &rq));
      CHECK_MPI(MPI_Wait(&rq, st));
      break;
    default:
      CHECK_MPI(write ? MPI_File_write_at_all_begin(fh, 0, buf, n, MPI_INT)
                      : MPI_File_read_at_all_begin(fh, 0, buf, n, MPI_INT));
      CHECK_MPI(write ? MPI_File_write_at_all_end(fh, buf, st)
                      : MPI_File_read_at_all_end(fh, buf, st));
      break;
  }
  CHECK(status_bytes(st) == n * (int)sizeof(int));
}

/* Writes this rank's n values collectively in form `form`, reads them back in the next form. */
static void write_read(MPI_File fh, int rank, int n, int form) {
  int* mine = malloc(sizeof(int) * (size_t)n);
  int* back = calloc((size_t)n, sizeof(int));
  for (int i = 0; i < n; ++i) mine[i] = value(rank, i);
  MPI_Status st;
  collective(fh, 1, form, mine, n, &st);
  collective(fh, 0, form + 1, back, n, &st);
  check_ints(back, mine, n, "read back");
  free(mine);
  free(back);
}

/* The whole file as rank 0 sees it through the default view, against what it must hold; holes
 * of the strided file keep the -1 they were filled with. */
static void check_file(MPI_File fh, int size, int strided) {
  const int n = strided ? NZ * NY * NX * (size + 2) - 2 : NZ * NY * NX * size;
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  MPI_Offset bytes = 0;
  CHECK_MPI(MPI_File_get_size(fh, &bytes));
  CHECK(bytes >= (MPI_Offset)(n * sizeof(int)));
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    int* got = malloc(sizeof(int) * (size_t)n);
    int* want = malloc(sizeof(int) * (size_t)n);
    CHECK_MPI(MPI_File_read_at(fh, 0, got, n, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; ++i) {
      if (strided) {
        const int tile = i / (size + 2), r = i % (size + 2);
        want[i] = r < size ? value(r, tile) : -1;
      } else {
        const int x = i % (NX * size), yz = i / (NX * size);
        want[i] = value(x / NX, yz * NX + x % NX);
      }
    }
    check_ints(got, want, n, strided ? "strided file" : "subarray file");
    free(got);
    free(want);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Interleaved large pieces: WIDE ints of each rank in turn, PIECES times; written and read back
 * collectively, then checked whole by rank 0. */
enum { WIDE = 16384, PIECES = 3 };
static void wide_pieces(MPI_File fh, int rank, int size, int form) {
  MPI_Datatype t;
  MPI_Type_vector(PIECES, WIDE, WIDE * size, MPI_INT, &t);
  MPI_Type_commit(&t);
  CHECK_MPI(MPI_File_set_view(fh, (MPI_Offset)rank * WIDE * (MPI_Offset)sizeof(int), MPI_INT, t,
                              "native", MPI_INFO_NULL));
  MPI_Type_free(&t);
  write_read(fh, rank, WIDE * PIECES, form);
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  if (rank == 0) {
    const int n = WIDE * PIECES * size;
    int* got = malloc(sizeof(int) * (size_t)n);
    int* want = malloc(sizeof(int) * (size_t)n);
    CHECK_MPI(MPI_File_read_at(fh, 0, got, n, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; ++i) {
      const int r = i / WIDE % size;
      want[i] = value(r, i / (WIDE * size) * WIDE + i % WIDE);
    }
    check_ints(got, want, n, "file of wide pieces");
    free(got);
    free(want);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char** argv) {
  char path[300];
  int size = 0;
  const int rank = io_start(&argc, &argv, "collective.dat", path, sizeof path, &size);
  const Config configs[] = {
      {"enable", NULL, NULL, NULL}, {"disable", NULL, NULL, NULL}, {"automatic", NULL, NULL, NULL},
      {"enable", "1", "100", NULL}, {"enable", "2", "64", NULL},   {"automatic", "2", "4096", NULL},
      {"enable", "2", "64", "12"},  {"enable", "3", NULL, "4096"}, {"enable", "8", "100", "40"},
  };
  const int count = (int)(sizeof configs / sizeof configs[0]);
  for (int c = 0; c < count; ++c) {
    check_context("config %d (cb %s, cb_nodes %s, cb_buffer_size %s, striping_unit %s)", c,
                  configs[c].cb, configs[c].nodes ? configs[c].nodes : "-",
                  configs[c].buffer ? configs[c].buffer : "-",
                  configs[c].stripe ? configs[c].stripe : "-");
    if (rank == 0) unlink(path);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File fh = open_with(path, &configs[c]);
    subarray_view(fh, rank, size);
    write_read(fh, rank, NZ * NY * NX, c);
    check_file(fh, size, 0);
    /* Strided, over a file of -1s: the holes must survive the aggregators' writes. */
    io_fill_ints(fh, NZ * NY * NX * (size + 2), -1);
    strided_view(fh, rank, size);
    write_read(fh, rank, NZ * NY * NX, c + 1);
    check_file(fh, size, 1);
    /* Only the last rank has data; the others take part with nothing. */
    int one = value(size - 1, 0), back = 0;
    const int n = rank == size - 1 ? 1 : 0;
    CHECK_MPI(MPI_File_write_at_all(fh, 4, &one, n, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_File_read_at_all(fh, 4, &back, n, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(back == (n ? one : 0));
    /* (Not through the tiny buffers: thousands of rounds.) */
    if (!configs[c].buffer || atoi(configs[c].buffer) >= 4096) wide_pieces(fh, rank, size, c + 2);
    CHECK_MPI(MPI_File_close(&fh));
  }
  check_context("%s", "");
  io_cleanup();
  if (rank == 0) printf("io_collective: %d configurations at %d ranks\n", count, size);
  MPI_Finalize();
  return 0;
}
