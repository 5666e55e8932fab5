/* Views in a representation registered with MPI_Register_datarep: "weft-int64be" stores each
 * MPI_INT as an 8-byte big-endian integer, so the file sizes differ from memory's and every
 * value goes through the conversion functions. Checked against the raw bytes on disk (POSIX
 * pread): collective and independent writes and reads, a strided filetype (a vector, whose
 * stride scales to the file's sizes) with a non-contiguous memory type (the functions get the
 * application's datatype, tiled, and a position), nonblocking reads (converted by the I/O
 * threads), a read cut by the end of the file (whole data items only), file extents, the _c
 * registration, MPI_CONVERSION_FN_NULL, and errors returned by each of the three callbacks. */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>

#include "expect_error.h"
#include "io_common.h"

enum { N = 6, K = 5 };
static const char* kRep = "weft-int64be";
static int conversions = 0; /* calls of the conversion functions */

static int value(int rank, int i) { return (mix3(rank, i, 11) % 2000000) - 1000000; }

static int extent_fn(MPI_Datatype t, MPI_Aint* extent, void* extra) {
  CHECK(extra == &conversions);
  if (t != MPI_INT) return MPI_ERR_TYPE; /* the representation knows ints only */
  *extent = 8;
  return MPI_SUCCESS;
}

/* The ints of `t` (a type made of MPI_INT only): per element, and the element's extent. */
static void int_layout(MPI_Datatype t, int* per, MPI_Aint* extent) {
  int size = 0;
  MPI_Aint lb = 0;
  MPI_Type_size(t, &size);
  MPI_Type_get_extent(t, &lb, extent);
  *per = size / (int)sizeof(int);
}

/* Items [position, position + count) of `t` tiled over `userbuf`: the whole elements they lie
 * in, packed, and where item `position` is among them. Both conversion functions start so. */
typedef struct {
  int packed[4096];
  int elements, per; /* elements packed; ints per element */
  MPI_Aint at;       /* the first one's byte offset in userbuf */
  long from;         /* the index in `packed` of item `position` */
} Around;

static void pack_around(void* userbuf, MPI_Datatype t, MPI_Count count, MPI_Offset position,
                        void* extra, Around* a) {
  CHECK(extra == &conversions);
  ++conversions;
  MPI_Aint extent = 0;
  int_layout(t, &a->per, &extent);
  const MPI_Offset first = position / a->per, last = (position + count - 1) / a->per;
  a->elements = (int)(last - first + 1);
  a->at = (MPI_Aint)first * extent;
  a->from = (long)(position - first * a->per);
  int pos = 0;
  CHECK_MPI(MPI_Pack((char*)userbuf + a->at, a->elements, t, a->packed, a->elements * a->per * 4,
                     &pos, MPI_COMM_SELF));
}

static int write_core(void* userbuf, MPI_Datatype t, MPI_Count count, void* filebuf,
                      MPI_Offset position, void* extra) {
  Around a;
  pack_around(userbuf, t, count, position, extra, &a);
  unsigned char* out = filebuf;
  for (MPI_Count i = 0; i < count; ++i) {
    const int v = a.packed[a.from + i];
    if (v == INT_MIN) return MPI_ERR_ARG; /* refused, to test the error path */
    const uint64_t u = (uint64_t)(int64_t)v;
    for (int b = 0; b < 8; ++b) out[8 * i + b] = (unsigned char)(u >> (56 - 8 * b));
  }
  return MPI_SUCCESS;
}

static int read_core(void* userbuf, MPI_Datatype t, MPI_Count count, void* filebuf,
                     MPI_Offset position, void* extra) {
  Around a; /* the items around these keep their values: pack, change these, unpack */
  pack_around(userbuf, t, count, position, extra, &a);
  const unsigned char* in = filebuf;
  for (MPI_Count i = 0; i < count; ++i) {
    uint64_t u = 0;
    for (int b = 0; b < 8; ++b) u = (u << 8) | in[8 * i + b];
    const int64_t v = (int64_t)u;
    if (v < INT_MIN || v > INT_MAX) return MPI_ERR_TRUNCATE; /* does not fit an int */
    a.packed[a.from + i] = (int)v;
  }
  int pos = 0;
  CHECK_MPI(MPI_Unpack(a.packed, a.elements * a.per * 4, &pos, (char*)userbuf + a.at, a.elements, t,
                       MPI_COMM_SELF));
  return MPI_SUCCESS;
}

static int write_fn(void* u, MPI_Datatype t, int count, void* f, MPI_Offset p, void* e) {
  return write_core(u, t, count, f, p, e);
}
static int read_fn(void* u, MPI_Datatype t, int count, void* f, MPI_Offset p, void* e) {
  return read_core(u, t, count, f, p, e);
}
static int native_extent(MPI_Datatype t, MPI_Aint* extent, void* extra) {
  (void)extra;
  MPI_Aint lb = 0;
  return MPI_Type_get_extent(t, &lb, extent);
}

/* The 8-byte big-endian integer at byte `at` of the file, read with POSIX. */
static int64_t raw_at(const char* path, long at) {
  unsigned char b[8];
  const int fd = open(path, O_RDONLY);
  CHECK(fd >= 0);
  CHECK(pread(fd, b, 8, (off_t)at) == 8);
  close(fd);
  uint64_t u = 0;
  for (int i = 0; i < 8; ++i) u = (u << 8) | b[i];
  return (int64_t)u;
}

static void set_rep_view(MPI_File fh, MPI_Offset disp, MPI_Datatype filetype, const char* rep) {
  CHECK_MPI(MPI_File_set_view(fh, disp, MPI_INT, filetype, rep, MPI_INFO_NULL));
}

/* Each rank's N ints, contiguous, rank after rank; written collectively, read back several ways. */
static void contiguous(MPI_File fh, const char* path, int rank, int size) {
  int mine[N], back[N];
  for (int i = 0; i < N; ++i) mine[i] = value(rank, i);
  set_rep_view(fh, 0, MPI_INT, kRep);
  MPI_Status st;
  conversions = 0;
  CHECK_MPI(MPI_File_write_at_all(fh, (MPI_Offset)rank * N, mine, N, MPI_INT, &st));
  CHECK(conversions > 0 && status_bytes(&st) == N * (int)sizeof(int));
  MPI_Barrier(MPI_COMM_WORLD);
  const int peer = (rank + 1) % size;
  for (int i = 0; i < N; ++i) CHECK(raw_at(path, 8L * (peer * N + i)) == value(peer, i));
  CHECK_MPI(MPI_File_read_at_all(fh, (MPI_Offset)peer * N, back, N, MPI_INT, &st));
  CHECK(status_bytes(&st) == N * (int)sizeof(int));
  for (int i = 0; i < N; ++i) CHECK(back[i] == value(peer, i));
  /* nonblocking: the data is converted on the I/O threads */
  MPI_Request r[2];
  int back2[N];
  memset(back, 0, sizeof back);
  CHECK_MPI(MPI_File_iread_at(fh, (MPI_Offset)peer * N, back, N, MPI_INT, &r[0]));
  CHECK_MPI(MPI_File_iread_at_all(fh, (MPI_Offset)rank * N, back2, N, MPI_INT, &r[1]));
  CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
  for (int i = 0; i < N; ++i) CHECK(back[i] == value(peer, i) && back2[i] == mine[i]);
  MPI_Aint extent = 0;
  CHECK_MPI(MPI_File_get_type_extent(fh, MPI_INT, &extent));
  CHECK(extent == 8);
}

/* A strided view (a vector filetype: its stride of `size` ints is `size` × 8 bytes in the file)
 * written from every other int of a buffer (a non-contiguous memory type). */
static void strided(MPI_File fh, const char* path, int rank, int size) {
  CHECK_MPI(MPI_File_set_size(fh, 0));
  MPI_Datatype filetype, every_other;
  MPI_Type_vector(K, 1, size, MPI_INT, &filetype);
  MPI_Type_commit(&filetype);
  MPI_Type_vector(K, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  set_rep_view(fh, (MPI_Offset)rank * 8, filetype, kRep);
  MPI_Aint extent = 0;
  CHECK_MPI(MPI_File_get_type_extent(fh, filetype, &extent));
  CHECK(extent == 8L * ((K - 1) * size + 1));
  int spread[2 * K], back[K];
  for (int i = 0; i < 2 * K; ++i) spread[i] = i % 2 == 0 ? value(rank, 100 + i / 2) : -1;
  CHECK_MPI(MPI_File_write_all(fh, spread, 1, every_other, MPI_STATUS_IGNORE));
  MPI_Barrier(MPI_COMM_WORLD);
  for (int p = 0; p < size; ++p)
    for (int k = 0; k < K; ++k) CHECK(raw_at(path, 8L * (k * size + p)) == value(p, 100 + k));
  CHECK_MPI(MPI_File_read_at_all(fh, 0, back, K, MPI_INT, MPI_STATUS_IGNORE));
  for (int k = 0; k < K; ++k) CHECK(back[k] == value(rank, 100 + k));
  /* read into every other int: the ints between keep their values */
  for (int i = 0; i < 2 * K; ++i) spread[i] = -7;
  CHECK_MPI(MPI_File_read_at_all(fh, 0, spread, 1, every_other, MPI_STATUS_IGNORE));
  for (int i = 0; i < 2 * K; ++i) CHECK(spread[i] == (i % 2 == 0 ? value(rank, 100 + i / 2) : -7));
  /* the same in the background, the memory type freed before the conversion runs */
  for (int i = 0; i < 2 * K; ++i) spread[i] = -5;
  MPI_Request r;
  CHECK_MPI(MPI_File_iread_at_all(fh, 0, spread, 1, every_other, &r));
  MPI_Type_free(&every_other);
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  for (int i = 0; i < 2 * K; ++i) CHECK(spread[i] == (i % 2 == 0 ? value(rank, 100 + i / 2) : -5));
  MPI_Type_free(&filetype);
}

/* Five ints in the file; reading two elements of three ints gets the five whole items. */
static void cut_by_end(MPI_File fh, int rank) {
  CHECK_MPI(MPI_File_set_size(fh, 0));
  set_rep_view(fh, 0, MPI_INT, kRep);
  int five[5], back[6];
  for (int i = 0; i < 5; ++i) five[i] = value(7, i);
  if (rank == 0) CHECK_MPI(MPI_File_write_at(fh, 0, five, 5, MPI_INT, MPI_STATUS_IGNORE));
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Datatype three;
  MPI_Type_contiguous(3, MPI_INT, &three);
  MPI_Type_commit(&three);
  for (int i = 0; i < 6; ++i) back[i] = -3;
  MPI_Status st;
  CHECK_MPI(MPI_File_read_at(fh, 0, back, 2, three, &st));
  int count = 0, elements = 0;
  MPI_Get_count(&st, three, &count);
  MPI_Get_elements(&st, three, &elements);
  CHECK(count == MPI_UNDEFINED && elements == 5);
  check_ints(back, five, 5, "a read cut by the end of the file");
  CHECK(back[5] == -3);
  MPI_Type_free(&three);
}

/* What each callback's failure does; MPI_CONVERSION_FN_NULL. */
static void errors(MPI_File fh, const char* path, int rank) {
  CHECK_MPI(MPI_File_set_size(fh, 0));
  set_rep_view(fh, 0, MPI_INT, kRep);
  const int bad = INT_MIN;
  EXPECT_ERROR(MPI_File_write_at(fh, rank, &bad, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_CONVERSION,
               "MPI_File_write_at", "write_conversion_fn");
  /* a value no int holds, put in the file as raw bytes */
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  if (rank == 0) {
    const unsigned char big[8] = {0, 0, 1, 0, 0, 0, 0, 0}; /* 2^40 */
    CHECK_MPI(MPI_File_write_at(fh, 0, big, 8, MPI_BYTE, MPI_STATUS_IGNORE));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(raw_at(path, 0) == (int64_t)1 << 40);
  set_rep_view(fh, 0, MPI_INT, kRep);
  int v = 0;
  EXPECT_ERROR(MPI_File_read_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_CONVERSION,
               "read_conversion_fn", kRep);
  /* the extent function knows no doubles: a view of doubles fails on every rank */
  EXPECT_ERROR(MPI_File_set_view(fh, 0, MPI_DOUBLE, MPI_DOUBLE, kRep, MPI_INFO_NULL),
               MPI_ERR_CONVERSION, "MPI_File_set_view", "dtype_file_extent_fn");
  /* no conversion functions and native sizes: the data moves as it is in memory */
  CHECK_MPI(MPI_File_set_size(fh, 0));
  set_rep_view(fh, 0, MPI_INT, "weft-as-is");
  int four[4] = {1, -2, 3, -4}, raw[4] = {0};
  CHECK_MPI(MPI_File_write_at(fh, rank * 4, four, 4, MPI_INT, MPI_STATUS_IGNORE));
  const int fd = open(path, O_RDONLY);
  CHECK(fd >= 0 && pread(fd, raw, sizeof raw, (off_t)rank * (off_t)sizeof raw) == sizeof raw);
  close(fd);
  check_ints(raw, four, 4, "weft-as-is bytes");
  /* registered with MPI_Register_datarep_c and no read function: writes convert, reads of
   * file sizes that are not memory's are refused */
  set_rep_view(fh, 0, MPI_INT, "weft-int64be-write-only");
  v = value(rank, 9);
  CHECK_MPI(MPI_File_write_at(fh, rank, &v, 1, MPI_INT, MPI_STATUS_IGNORE));
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(raw_at(path, 8L * rank) == v);
  EXPECT_ERROR(MPI_File_read_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_CONVERSION,
               "MPI_File_read_at", "MPI_CONVERSION_FN_NULL");
}

int main(int argc, char** argv) {
  char path[300];
  int size = 0;
  const int rank = io_start(&argc, &argv, "userrep.dat", path, sizeof path, &size);
  CHECK_MPI(MPI_Register_datarep(kRep, read_fn, write_fn, extent_fn, &conversions));
  EXPECT_ERROR(MPI_Register_datarep(kRep, read_fn, write_fn, extent_fn, &conversions),
               MPI_ERR_DUP_DATAREP, "MPI_Register_datarep", kRep);
  CHECK_MPI(MPI_Register_datarep("weft-as-is", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL,
                                 native_extent, NULL));
  CHECK_MPI(MPI_Register_datarep_c("weft-int64be-write-only", MPI_CONVERSION_FN_NULL_C, write_core,
                                   extent_fn, &conversions));
  MPI_File fh = io_open_rdwr(path);
  contiguous(fh, path, rank, size);
  strided(fh, path, rank, size);
  cut_by_end(fh, rank);
  errors(fh, path, rank);
  CHECK_MPI(MPI_File_close(&fh));
  io_finish(rank, "io_userrep");
  return 0;
}
