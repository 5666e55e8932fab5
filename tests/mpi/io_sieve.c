/* Data sieving for independent non-contiguous access: reads and writes through a strided view
 * with romio_ds_read/romio_ds_write forced on (small ind_rd/wr_buffer_size: many blocks) give
 * the same file and the same data as forced off; concurrent sieved writers on interleaved ints
 * (every block they read-modify-write holds the others' data) lose nothing; a sieved read
 * stops at the end of the file. */
#include "io_common.h"

enum { N = 3000, ROUNDS = 3 }; /* ints per rank, and how often the writers go over the file */

static int value(int rank, int i, int round) { return mix3(rank, i, round) % 1000000 + 1; }

static MPI_File open_ds(const char* path, const char* ds, const char* buffer) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "romio_ds_read", ds);
  MPI_Info_set(info, "romio_ds_write", ds);
  MPI_Info_set(info, "ind_rd_buffer_size", buffer);
  MPI_Info_set(info, "ind_wr_buffer_size", buffer);
  MPI_File fh;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
  MPI_Info_free(&info);
  return fh;
}

/* Rank r owns int r of every tile of size + 1 ints (the last int of a tile is a hole). */
static void interleaved_view(MPI_File fh, int rank, int size) {
  io_view_one_int_in(fh, rank, size + 1);
}

/* The whole file, read plainly by every rank. */
static int* whole_file(MPI_File fh, int n) {
  int* all = malloc(sizeof(int) * (size_t)n);
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  CHECK_MPI(MPI_File_read_at(fh, 0, all, n, MPI_INT, MPI_STATUS_IGNORE));
  return all;
}

int main(int argc, char** argv) {
  char path[300];
  int size = 0;
  const int rank = io_start(&argc, &argv, "sieve.dat", path, sizeof path, &size);
  const int total = N * (size + 1); /* ints in the file, holes included */
  int* mine = malloc(sizeof(int) * N);
  int* back = malloc(sizeof(int) * N);
  int* reference = NULL;
  const char* modes[] = {"disable", "enable", "automatic"};
  const char* buffers[] = {"4194304", "1000", "64"};
  for (int m = 0; m < 3; ++m) {
    check_context("ds %s, buffers %s", modes[m], buffers[m]);
    if (rank == 0) unlink(path);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File fh = open_ds(path, modes[m], buffers[m]);
    io_fill_ints(fh, total, -1); /* holes hold -1 */
    interleaved_view(fh, rank, size);
    /* All ranks at once, independently, several times over: each sieved block of one rank
     * covers ints of all the others. */
    for (int r = 0; r < ROUNDS; ++r) {
      for (int i = 0; i < N; ++i) mine[i] = value(rank, i, r);
      for (int half = 0; half < 2; ++half)
        CHECK_MPI(MPI_File_write_at(fh, half * (N / 2), mine + half * (N / 2),
                                    half ? N - N / 2 : N / 2, MPI_INT, MPI_STATUS_IGNORE));
    }
    MPI_Status st;
    CHECK_MPI(MPI_File_read_at(fh, 0, back, N, MPI_INT, &st));
    CHECK(status_bytes(&st) == N * (int)sizeof(int));
    check_ints(back, mine, N, "read back");
    /* Past the end: the last tile's hole int is beyond the file, so 2 ints exist from N - 2. */
    CHECK_MPI(MPI_File_read_at(fh, N - 2, back, 5, MPI_INT, &st));
    CHECK(status_bytes(&st) == 2 * (int)sizeof(int));
    CHECK(back[0] == mine[N - 2] && back[1] == mine[N - 1]);
    MPI_Barrier(MPI_COMM_WORLD);
    int* all = whole_file(fh, total);
    for (int i = 0; i < total; ++i) {
      const int tile = i / (size + 1), r = i % (size + 1);
      CHECK(all[i] == (r == size ? -1 : value(r, tile, ROUNDS - 1)));
    }
    if (reference == NULL) {
      reference = all;
    } else {
      check_ints(all, reference, total, "file against ds disabled");
      free(all);
    }
    CHECK_MPI(MPI_File_close(&fh));
  }
  check_context("%s", "");
  free(reference);
  free(mine);
  free(back);
  io_cleanup();
  if (rank == 0) printf("io_sieve: 3 modes at %d ranks\n", size);
  MPI_Finalize();
  return 0;
}
