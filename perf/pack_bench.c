/* MPI_Pack and MPI_Unpack of a vector of doubles against memcpy of the same bytes: for several
 * block lengths and strides, prints the rate (GB/s of packed data) of each and the ratio to
 * memcpy. A plain MPI program: builds against Weft, Open MPI and MPICH alike.
 *   weftrun -n 1 ./pack_bench [packed MiB, default 4] [repetitions, default 20] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Best time of `reps` runs of one operation. */
#define BEST_OF(reps, best, op)                 \
  do {                                          \
    best = 1e30;                                \
    for (int r_ = 0; r_ < (reps); ++r_) {       \
      const double t0_ = MPI_Wtime();           \
      op;                                       \
      const double t_ = MPI_Wtime() - t0_;      \
      if (t_ < best) best = t_;                 \
    }                                           \
  } while (0)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const double mib = argc > 1 ? atof(argv[1]) : 4.0;
  const int reps = argc > 2 ? atoi(argv[2]) : 20;
  const long packed_doubles = (long)(mib * 1024 * 1024 / sizeof(double));
  const int blocks[] = {1, 2, 4, 8, 16, 64, 512};
  const int nblocks = (int)(sizeof blocks / sizeof blocks[0]);

  double* packed = malloc((size_t)packed_doubles * sizeof(double));
  double* copy = malloc((size_t)packed_doubles * sizeof(double));
  double* source = malloc((size_t)packed_doubles * 2 * sizeof(double) + 4096);
  for (long i = 0; i < packed_doubles * 2; ++i) source[i] = (double)i;
  memset(packed, 0, (size_t)packed_doubles * sizeof(double));
  memset(copy, 0, (size_t)packed_doubles * sizeof(double));

  const size_t bytes = (size_t)packed_doubles * sizeof(double);
  double t_memcpy;
  BEST_OF(reps, t_memcpy, memcpy(copy, source, bytes));
  printf("# MPI_Pack/MPI_Unpack of MPI_Type_vector(count, block, stride, MPI_DOUBLE), %.1f MiB "
         "packed, best of %d\n",
         mib, reps);
  printf("# memcpy of the same bytes: %.2f GB/s\n", bytes / t_memcpy / 1e9);
  printf("%6s %6s %10s %10s %10s %10s %10s\n", "block", "stride", "count", "pack GB/s",
         "vs memcpy", "unpack GB/s", "vs memcpy");
  for (int b = 0; b < nblocks; ++b) {
    for (int wide = 0; wide < 2; ++wide) {
      const int block = blocks[b];
      const int stride = wide ? 2 * block : block + 1;
      if (wide && stride == block + 1) continue; /* block 1: the same case twice */
      const int count = (int)(packed_doubles / block);
      MPI_Datatype vec;
      MPI_Type_vector(count, block, stride, MPI_DOUBLE, &vec);
      MPI_Type_commit(&vec);
      int size = 0;
      MPI_Pack_size(1, vec, MPI_COMM_SELF, &size);
      int position = 0;
      double t_pack, t_unpack;
      BEST_OF(reps, t_pack, position = 0;
              MPI_Pack(source, 1, vec, packed, size, &position, MPI_COMM_SELF));
      BEST_OF(reps, t_unpack, position = 0;
              MPI_Unpack(packed, size, &position, source, 1, vec, MPI_COMM_SELF));
      /* The packed stream holds every block in order. */
      if (packed[block] != (double)stride || packed[0] != 0.0) {
        fprintf(stderr, "pack_bench: wrong packed data for block %d stride %d\n", block, stride);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
      printf("%6d %6d %10d %10.2f %10.2f %10.2f %10.2f\n", block, stride, count,
             size / t_pack / 1e9, t_memcpy / t_pack, size / t_unpack / 1e9, t_memcpy / t_unpack);
      MPI_Type_free(&vec);
    }
  }
  free(source);
  free(copy);
  free(packed);
  MPI_Finalize();
  return 0;
}
