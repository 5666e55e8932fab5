/* Simultaneous exchange on 2 ranks in plain MPI (builds with any MPI): both ranks MPI_Sendrecv
 * the same number of bytes to each other at once, the pattern inside 2-rank allgather, alltoall
 * and the exchange rounds of allreduce. Prints, per size, the mean microseconds per exchange
 * and, for scale, per memcpy of the same bytes.
 *   mpirun -n 2 ./exchange_bench [repetitions per size, default 200] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const size_t kSizes[] = {(size_t)64 << 10, (size_t)256 << 10, (size_t)1 << 20,
                                (size_t)4 << 20};

/* Mean seconds per MPI_Sendrecv of `bytes` with the other rank, after a warm-up. */
static double time_exchange(char* out, char* in, size_t bytes, int reps, int peer) {
  for (int i = 0; i < 10; ++i)
    MPI_Sendrecv(out, (int)bytes, MPI_CHAR, peer, 0, in, (int)bytes, MPI_CHAR, peer, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int i = 0; i < reps; ++i)
    MPI_Sendrecv(out, (int)bytes, MPI_CHAR, peer, 0, in, (int)bytes, MPI_CHAR, peer, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return (MPI_Wtime() - t0) / reps;
}

/* Mean seconds per memcpy of `bytes`, alternating between two halves of `dst`. */
static double time_memcpy(char* dst, const char* src, size_t bytes, int reps) {
  const double t0 = MPI_Wtime();
  for (int i = 0; i < reps; ++i) memcpy(dst + (size_t)(i & 1) * bytes, src, bytes);
  return (MPI_Wtime() - t0) / reps;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int reps = argc > 1 ? atoi(argv[1]) : 200;
  if (size != 2 || reps < 1) {
    if (rank == 0) fprintf(stderr, "usage: mpirun -n 2 exchange_bench [repetitions >= 1]\n");
    MPI_Finalize();
    return 2;
  }
  const size_t max = kSizes[sizeof kSizes / sizeof kSizes[0] - 1];
  char* out = malloc(max);
  char* in = malloc(2 * max);
  if (out == NULL || in == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(out, rank + 1, max);
  memset(in, 0, 2 * max);
  if (rank == 0) printf("# bytes exchange_us memcpy_us\n");
  for (size_t k = 0; k < sizeof kSizes / sizeof kSizes[0]; ++k) {
    const size_t bytes = kSizes[k];
    const double exchange = time_exchange(out, in, bytes, reps, 1 - rank);
    if (in[0] != (char)(2 - rank) || in[bytes - 1] != (char)(2 - rank)) {
      fprintf(stderr, "exchange_bench: WRONG RESULT at %zu bytes on rank %d\n", bytes, rank);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
    const double copy = time_memcpy(in, out, bytes, reps);
    double slowest;
    MPI_Reduce(&exchange, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("%zu %.1f %.1f\n", bytes, slowest * 1e6, copy * 1e6);
  }
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
