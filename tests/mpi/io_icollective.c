/* Nonblocking and split collective I/O run in the background:
 * - a rank's MPI_File_iwrite_at_all and _begin return before the other ranks have started theirs
 *   (rank 0 tells the others to start only after its call returned; a rank that hears nothing
 *   within 10 s starts anyway and the test fails, so nothing hangs);
 * - the two-phase exchange progresses while the aggregator (rank 0) makes no MPI call: it sees
 *   the other ranks' data reach the file, and the other ranks' iread_at_all complete, by POSIX
 *   calls alone;
 * - several collectives outstanding on two files started in different orders on odd and even
 *   ranks, a freed request, a blocking collective after nonblocking ones, ordered split calls.
 * The application runs at MPI_THREAD_SINGLE: the library's own threads must not need more. */
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>

#include "io_common.h"

enum { B = 8, K = 16, PER_RANK = B * K, TOKEN_TAG = 17 };
static const double kPatience = 10.0; /* seconds a rank waits for what must come at once */

static int value(int rank, int i, int salt) { return mix3(rank, i, salt) % 1000000 + 1; }

static void fill(int* buf, int rank, int salt) {
  for (int i = 0; i < PER_RANK; ++i) buf[i] = value(rank, i, salt);
}

/* A file opened with collective buffering forced on (so rank 0 aggregates every byte) and this
 * rank's view: K blocks of B ints, the ranks' blocks interleaved. */
static MPI_File open_interleaved(const char* path, int rank, int size) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_cb_write", "enable");
  MPI_Info_set(info, "romio_cb_read", "enable");
  MPI_Info_set(info, "cb_nodes", "1");
  MPI_File fh;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
  MPI_Info_free(&info);
  MPI_Datatype blocks, t;
  MPI_Type_vector(K, B, B * size, MPI_INT, &blocks);
  MPI_Type_create_resized(blocks, 0, (MPI_Aint)K * B * size * (MPI_Aint)sizeof(int), &t);
  MPI_Type_commit(&t);
  MPI_Type_free(&blocks);
  CHECK_MPI(MPI_File_set_view(fh, (MPI_Offset)rank * B * sizeof(int), MPI_INT, t, "native",
                              MPI_INFO_NULL));
  MPI_Type_free(&t);
  return fh;
}

static MPI_Request token = MPI_REQUEST_NULL; /* a rank's receive of rank 0's go-ahead */
static int token_value;

/* Rank 0: after its call returned, tells every other rank to start. Others: wait for that (at
 * most kPatience seconds); returns 1 if it did not come, i.e. rank 0's call waited for them. */
static int start_after_rank0(int rank, int size) {
  if (rank == 0) {
    for (int p = 1; p < size; ++p)
      CHECK_MPI(MPI_Send(&token_value, 1, MPI_INT, p, TOKEN_TAG, MPI_COMM_WORLD));
    return 0;
  }
  int got = 0;
  CHECK_MPI(MPI_Irecv(&token_value, 1, MPI_INT, 0, TOKEN_TAG, MPI_COMM_WORLD, &token));
  const double until = MPI_Wtime() + kPatience;
  while (!got && MPI_Wtime() < until) CHECK_MPI(MPI_Test(&token, &got, MPI_STATUS_IGNORE));
  if (got) return 0;
  fprintf(stderr,
          "rank %d: rank 0's nonblocking collective did not return before this rank "
          "started its own\n",
          rank);
  return 1;
}

/* The go-ahead of start_after_rank0, if it came late. */
static void finish_token(void) { CHECK_MPI(MPI_Wait(&token, MPI_STATUS_IGNORE)); }

/* The int at file position `at` (in ints) as POSIX reads it; -1 if not there yet. */
static int int_on_disk(const char* path, long at) {
  int v = -1;
  const int fd = open(path, O_RDONLY);
  if (fd < 0) return -1;
  if (pread(fd, &v, sizeof v, (off_t)at * (off_t)sizeof v) != (ssize_t)sizeof v) v = -1;
  close(fd);
  return v;
}

/* Sleeps until cond(path, arg) holds or kPatience passes, with no MPI call; whether it held. */
static int wait_outside_mpi(int (*cond)(const char*, long, int), const char* path, long at,
                            int want) {
  struct timespec t0, now;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    if (cond(path, at, want)) return 1;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if ((double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec) > kPatience)
      return 0;
    usleep(1000);
  }
}
static int holds_int(const char* path, long at, int want) { return int_on_disk(path, at) == want; }
static int exists(const char* path, long at, int want) {
  (void)at, (void)want;
  struct stat st;
  return stat(path, &st) == 0;
}

static void check_block(const int* got, int rank, int salt, const char* what) {
  int want[PER_RANK];
  fill(want, rank, salt);
  check_ints(got, want, PER_RANK, what);
}

/* iwrite_at_all and write_at_all_begin return at once; then read back with iread/split. */
static int start_returns_at_once(const char* path, int rank, int size) {
  int late = 0, buf[PER_RANK], back[PER_RANK];
  MPI_File fh = open_interleaved(path, rank, size);
  MPI_Request r;
  MPI_Status st;
  fill(buf, rank, 1);
  if (rank != 0) late |= start_after_rank0(rank, size);
  CHECK_MPI(MPI_File_iwrite_at_all(fh, 0, buf, PER_RANK, MPI_INT, &r));
  if (rank == 0) start_after_rank0(rank, size);
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(status_bytes(&st) == PER_RANK * (int)sizeof(int));
  finish_token();

  fill(buf, rank, 2);
  if (rank != 0) late |= start_after_rank0(rank, size);
  CHECK_MPI(MPI_File_write_at_all_begin(fh, PER_RANK, buf, PER_RANK, MPI_INT));
  if (rank == 0) start_after_rank0(rank, size);
  CHECK_MPI(MPI_File_write_at_all_end(fh, buf, &st));
  CHECK(status_bytes(&st) == PER_RANK * (int)sizeof(int));
  finish_token();

  CHECK_MPI(MPI_File_iread_at_all(fh, 0, back, PER_RANK, MPI_INT, &r));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(status_bytes(&st) == PER_RANK * (int)sizeof(int));
  check_block(back, rank, 1, "iread_at_all of iwrite_at_all's data");
  CHECK_MPI(MPI_File_read_at_all_begin(fh, PER_RANK, back, PER_RANK, MPI_INT));
  CHECK_MPI(MPI_File_read_at_all_end(fh, back, &st));
  check_block(back, rank, 2, "read_at_all_begin/end of write_at_all_begin's data");
  CHECK_MPI(MPI_File_close(&fh));
  return late;
}

/* Rank 0, the aggregator, stays out of MPI while the exchange must go on: the last rank's data
 * reaches the file, and the last rank's iread_at_all completes (it then makes a marker file). */
static int progress_outside_mpi(const char* path, const char* marker, int rank, int size) {
  int missed = 0, buf[PER_RANK], back[PER_RANK];
  MPI_File fh = open_interleaved(path, rank, size);
  MPI_Request r;
  fill(buf, rank, 3);
  CHECK_MPI(MPI_File_iwrite_at_all(fh, 0, buf, PER_RANK, MPI_INT, &r));
  if (rank == 0) {
    const int last = size - 1;
    const long at = (long)(K - 1) * B * size + (long)last * B + B - 1; /* its last int */
    if (!wait_outside_mpi(holds_int, path, at, value(last, PER_RANK - 1, 3))) {
      missed = 1;
      fprintf(stderr,
              "rank 0: rank %d's data did not reach the file while rank 0 made no MPI "
              "call\n",
              last);
    }
  }
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  MPI_Barrier(MPI_COMM_WORLD);

  CHECK_MPI(MPI_File_iread_at_all(fh, 0, back, PER_RANK, MPI_INT, &r));
  if (rank == 0 && size > 1 && !wait_outside_mpi(exists, marker, 0, 0)) {
    missed = 1;
    fprintf(stderr,
            "rank 0: rank %d's iread_at_all did not complete while rank 0 made no MPI "
            "call\n",
            size - 1);
  }
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  check_block(back, rank, 3, "iread_at_all while the aggregator computes");
  if (rank == size - 1 && size > 1) {
    const int fd = open(marker, O_CREAT | O_WRONLY, 0600);
    CHECK(fd >= 0);
    close(fd);
  }
  CHECK_MPI(MPI_File_close(&fh));
  return missed;
}

/* Two files, their nonblocking collectives started in opposite orders on odd and even ranks (each
 * file's own order is the same everywhere); a request freed before completion, whose data a
 * blocking collective after it must see; completion by MPI_Testall polling. */
static void several_outstanding(const char* p1, const char* p2, int rank, int size) {
  int a[PER_RANK], b[PER_RANK], c[PER_RANK], back[PER_RANK];
  MPI_File f1 = open_interleaved(p1, rank, size), f2 = open_interleaved(p2, rank, size);
  MPI_Request r[2], freed;
  fill(a, rank, 4);
  fill(b, rank, 5);
  fill(c, rank, 6);
  if (rank % 2 == 0) {
    CHECK_MPI(MPI_File_iwrite_all(f1, a, PER_RANK, MPI_INT, &r[0]));
    CHECK_MPI(MPI_File_iwrite_all(f2, b, PER_RANK, MPI_INT, &r[1]));
  } else {
    CHECK_MPI(MPI_File_iwrite_all(f2, b, PER_RANK, MPI_INT, &r[1]));
    CHECK_MPI(MPI_File_iwrite_all(f1, a, PER_RANK, MPI_INT, &r[0]));
  }
  /* the individual pointers moved when the calls started */
  MPI_Offset pos = -1;
  CHECK_MPI(MPI_File_get_position(f1, &pos));
  CHECK(pos == PER_RANK);
  CHECK_MPI(MPI_File_iwrite_at_all(f1, PER_RANK, c, PER_RANK, MPI_INT, &freed));
  CHECK_MPI(MPI_Request_free(&freed));
  CHECK(freed == MPI_REQUEST_NULL);
  CHECK_MPI(MPI_File_read_at_all(f1, PER_RANK, back, PER_RANK, MPI_INT, MPI_STATUS_IGNORE));
  check_block(back, rank, 6, "blocking read_at_all after a freed iwrite_at_all");
  int done = 0;
  MPI_Status st[2];
  while (!done) CHECK_MPI(MPI_Testall(2, r, &done, st));
  CHECK(status_bytes(&st[0]) == PER_RANK * (int)sizeof(int));
  CHECK_MPI(MPI_File_read_at_all(f1, 0, back, PER_RANK, MPI_INT, MPI_STATUS_IGNORE));
  check_block(back, rank, 4, "first file");
  CHECK_MPI(MPI_File_read_at_all(f2, 0, back, PER_RANK, MPI_INT, MPI_STATUS_IGNORE));
  check_block(back, rank, 5, "second file");
  CHECK_MPI(MPI_File_close(&f1));
  CHECK_MPI(MPI_File_close(&f2));
}

/* write_ordered_begin/end: rank r's r + 1 ints follow those of lower ranks; read_ordered_begin
 * gives them back; the shared pointer moved past all. */
static void ordered_split(const char* path, int rank, int size) {
  MPI_File fh = io_open_rdwr(path);
  int mine[64], back[64];
  for (int i = 0; i <= rank; ++i) mine[i] = value(rank, i, 7);
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  CHECK_MPI(MPI_File_write_ordered_begin(fh, mine, rank + 1, MPI_INT));
  MPI_Status st;
  CHECK_MPI(MPI_File_write_ordered_end(fh, mine, &st));
  CHECK(status_bytes(&st) == (rank + 1) * (int)sizeof(int));
  MPI_Offset pos = -1;
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == (MPI_Offset)size * (size + 1) / 2);
  const long at = (long)rank * (rank + 1) / 2; /* ints of lower ranks */
  CHECK(int_on_disk(path, at) == mine[0] && int_on_disk(path, at + rank) == mine[rank]);
  CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_read_ordered_begin(fh, back, rank + 1, MPI_INT));
  CHECK_MPI(MPI_File_read_ordered_end(fh, back, &st));
  check_ints(back, mine, rank + 1, "read_ordered_begin/end");
  CHECK_MPI(MPI_File_close(&fh));
}

int main(int argc, char** argv) {
  char path[300], p2[300], marker[300];
  int size = 0;
  const int rank = io_start(&argc, &argv, "icoll.dat", path, sizeof path, &size);
  io_path(p2, sizeof p2, "icoll2.dat");
  io_path(marker, sizeof marker, "icoll.done");
  int failed = start_returns_at_once(path, rank, size);
  failed |= progress_outside_mpi(p2, marker, rank, size);
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK(any == 0);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    unlink(path);
    unlink(p2);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  several_outstanding(path, p2, rank, size);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) unlink(path);
  MPI_Barrier(MPI_COMM_WORLD);
  ordered_split(path, rank, size);
  io_finish(rank, "io_icollective");
  return 0;
}
