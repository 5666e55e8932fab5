/* Nonblocking independent I/O runs in the background: an MPI_File_iread in atomic mode waits
 * for the byte-range lock another open file description of this process holds (an OFD lock,
 * which conflicts with the library's record lock even within one process), so MPI_Test must
 * say "not yet" until the lock goes; then the read completes with the data. A large iwrite and
 * iread finish through MPI_Test polling alone. */
#define _GNU_SOURCE /* F_OFD_SETLK */
#include <fcntl.h>

#include "io_common.h"

enum { N = 1024, BIG = 4 << 20 }; /* ints per rank for the locked read; bytes per rank */

static int value(int rank, int i) { return mix3(rank, i, 5) % 1000000 + 1; }

static void set_ofd_lock(int fd, short type, off_t start, off_t len) {
  struct flock l;
  memset(&l, 0, sizeof l);
  l.l_type = type;
  l.l_whence = SEEK_SET;
  l.l_start = start;
  l.l_len = len;
  CHECK(fcntl(fd, F_OFD_SETLK, &l) == 0);
}

/* Polls r with MPI_Test until it completes; returns how many polls it took. */
static long poll_until_done(MPI_Request* r, MPI_Status* st) {
  long polls = 0;
  int done = 0;
  while (!done) {
    CHECK_MPI(MPI_Test(r, &done, st));
    ++polls;
  }
  return polls;
}

int main(int argc, char** argv) {
  char path[300];
  int size = 0;
  const int rank = io_start(&argc, &argv, "overlap.dat", path, sizeof path, &size);
  MPI_File fh = io_open_rdwr(path);
  const MPI_Offset at = (MPI_Offset)rank * N * (MPI_Offset)sizeof(int);
  int* mine = malloc(sizeof(int) * N);
  int* back = calloc(N, sizeof(int));
  for (int i = 0; i < N; ++i) mine[i] = value(rank, i);
  CHECK_MPI(MPI_File_write_at(fh, at, mine, N, MPI_INT, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_File_set_atomicity(fh, 1));
  MPI_Barrier(MPI_COMM_WORLD);

  /* Hold a write lock on this rank's range through a second descriptor. */
  const int other = open(path, O_RDWR);
  CHECK(other >= 0);
  set_ofd_lock(other, F_WRLCK, at, N * sizeof(int));
  MPI_Request r;
  MPI_Status st;
  int done = 1;
  CHECK_MPI(MPI_File_iread_at(fh, at, back, N, MPI_INT, &r));
  for (int i = 0; i < 5; ++i) {
    CHECK_MPI(MPI_Test(&r, &done, &st));
    CHECK(!done);
    usleep(10000);
  }
  set_ofd_lock(other, F_UNLCK, at, N * sizeof(int));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(status_bytes(&st) == N * (int)sizeof(int));
  check_ints(back, mine, N, "locked iread");
  close(other);
  CHECK_MPI(MPI_File_set_atomicity(fh, 0));

  /* A few MiB each way through the individual pointer, completed by polling. */
  unsigned char* big = malloc(BIG);
  unsigned char* big_back = malloc(BIG);
  for (int i = 0; i < BIG; ++i) big[i] = (unsigned char)(i * 7 + rank);
  const MPI_Offset big_at = (MPI_Offset)size * N * (MPI_Offset)sizeof(int) + (MPI_Offset)rank * BIG;
  CHECK_MPI(MPI_File_seek(fh, big_at, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_iwrite(fh, big, BIG, MPI_BYTE, &r));
  MPI_Offset pos = 0;
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == big_at + BIG); /* the pointer moved when the write started */
  const long wpolls = poll_until_done(&r, &st);
  CHECK(status_bytes(&st) == BIG);
  CHECK_MPI(MPI_File_iread_at(fh, big_at, big_back, BIG, MPI_BYTE, &r));
  const long rpolls = poll_until_done(&r, &st);
  CHECK(status_bytes(&st) == BIG);
  CHECK(memcmp(big, big_back, BIG) == 0);
  if (rank == 0)
    printf("io_overlap: locked iread seen pending, 4 MiB iwrite/iread took %ld/%ld polls\n", wpolls,
           rpolls);
  free(big);
  free(big_back);
  free(mine);
  free(back);
  CHECK_MPI(MPI_File_close(&fh));
  io_cleanup();
  MPI_Finalize();
  return 0;
}
