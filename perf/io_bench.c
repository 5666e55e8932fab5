/* Collective MPI-IO bandwidth of a distributed 3-D array, the pattern checkpoints of stencil
 * codes (and IOR/HDF5 users) write: the global array of doubles is cut into one block per rank
 * (MPI_Dims_create over 3 dimensions), each rank's view is its block as a subarray filetype, and
 * the whole array is written with MPI_File_write_all and read back with MPI_File_read_all.
 * Prints "write_all NRANKS MB/s" and "read_all NRANKS MB/s" (best of ITERS, the time of the
 * slowest rank, MB = 1e6 bytes of the whole array), and from rank 0 the machine's limit for the
 * same bytes: "limit_write" / "limit_read", one process, one write(2) / read(2) of one buffer.
 * Plain MPI: builds with any MPI's mpicc.
 * Usage: io_bench DIR [MIB [KEY=VALUE...]]   (DIR: where the files go; MIB: size of the array,
 * default 64; then hints for MPI_File_open, e.g. romio_cb_write=enable cb_nodes=2) */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { ITERS = 3 };

static double best_of(double best, double t) { return best == 0 || t < best ? t : best; }

/* Time of one collective transfer of the rank's block, the slowest rank's. */
static double timed_all(MPI_File fh, double* block, int n, int write) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime();
  if (write) {
    MPI_File_write_at_all(fh, 0, block, n, MPI_DOUBLE, MPI_STATUS_IGNORE);
  } else {
    MPI_File_read_at_all(fh, 0, block, n, MPI_DOUBLE, MPI_STATUS_IGNORE);
  }
  t = MPI_Wtime() - t;
  MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return t;
}

/* One process, one system call, the same bytes: what the file system gives at best. As with the
 * collective calls, the best of ITERS overwrites a file the first iteration allocated. */
static void limit(const char* path, size_t bytes, int nranks) {
  char* buf = malloc(bytes);
  memset(buf, 1, bytes);
  double tw = 0, tr = 0;
  for (int i = 0; i < ITERS; ++i) {
    int fd = open(path, O_CREAT | O_WRONLY, 0600);
    double t = MPI_Wtime();
    if (write(fd, buf, bytes) != (ssize_t)bytes) perror("write");
    tw = best_of(tw, MPI_Wtime() - t);
    close(fd);
    fd = open(path, O_RDONLY);
    t = MPI_Wtime();
    if (read(fd, buf, bytes) != (ssize_t)bytes) perror("read");
    tr = best_of(tr, MPI_Wtime() - t);
    close(fd);
  }
  unlink(path);
  printf("limit_write %d %.0f\nlimit_read %d %.0f\n", nranks, bytes / tw / 1e6, nranks,
         bytes / tr / 1e6);
  free(buf);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2) {
    if (rank == 0) fprintf(stderr, "usage: io_bench DIR [MIB]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const long mib = argc > 2 ? atol(argv[2]) : 64;
  /* The global array: 2^k doubles per side, as cubic as the size allows. */
  const long doubles = mib * 1024 * 1024 / 8;
  int g[3] = {1, 1, 1}, d = 0;
  for (long n = doubles; n > 1; n /= 2, d = (d + 1) % 3) g[d] *= 2;
  int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0}, coords[3];
  MPI_Dims_create(size, 3, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
  MPI_Cart_coords(cart, rank, 3, coords);
  int sub[3], start[3], n = 1;
  for (int k = 0; k < 3; ++k) {
    sub[k] = g[k] / dims[k] + (coords[k] < g[k] % dims[k]);
    start[k] =
        coords[k] * (g[k] / dims[k]) + (coords[k] < g[k] % dims[k] ? coords[k] : g[k] % dims[k]);
    n *= sub[k];
  }
  MPI_Datatype filetype;
  MPI_Type_create_subarray(3, g, sub, start, MPI_ORDER_C, MPI_DOUBLE, &filetype);
  MPI_Type_commit(&filetype);
  double* block = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; ++i) block[i] = rank + i * 1e-9;
  char path[4096];
  snprintf(path, sizeof path, "%s/io_bench.%d.dat", argv[1], size);
  MPI_Info info;
  MPI_Info_create(&info);
  for (int a = 3; a < argc; ++a) {
    char key[256];
    const char* eq = strchr(argv[a], '=');
    if (eq == NULL || eq - argv[a] >= (long)sizeof key) continue;
    snprintf(key, (size_t)(eq - argv[a]) + 1, "%s", argv[a]);
    MPI_Info_set(info, key, eq + 1);
  }
  MPI_File fh;
  const int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
  MPI_Info_free(&info);
  if (rc != MPI_SUCCESS) {
    if (rank == 0) fprintf(stderr, "io_bench: cannot open %s\n", path);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_File_set_view(fh, 0, MPI_DOUBLE, filetype, "native", MPI_INFO_NULL);
  double tw = 0, tr = 0;
  for (int i = 0; i < ITERS; ++i) {
    tw = best_of(tw, timed_all(fh, block, n, 1));
    tr = best_of(tr, timed_all(fh, block, n, 0));
  }
  const double bytes = (double)g[0] * g[1] * g[2] * sizeof(double);
  if (rank == 0)
    printf("# %dx%dx%d doubles on %dx%dx%d ranks\nwrite_all %d %.0f\nread_all %d %.0f\n", g[0],
           g[1], g[2], dims[0], dims[1], dims[2], size, bytes / tw / 1e6, size, bytes / tr / 1e6);
  MPI_File_close(&fh);
  if (rank == 0) {
    MPI_File_delete(path, MPI_INFO_NULL);
    snprintf(path, sizeof path, "%s/io_bench.limit.dat", argv[1]);
    limit(path, (size_t)bytes, size);
  }
  free(block);
  MPI_Type_free(&filetype);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
