/* Shared by the tests/mpi programs: CHECK stops the whole job with a message naming the failed
 * condition, the rank, file and line. */
#ifndef WEFT_TESTS_CHECK_H
#define WEFT_TESTS_CHECK_H
#include <mpi.h>
#include <stdio.h>

#define CHECK(cond)                                                                              \
  do {                                                                                           \
    if (!(cond)) {                                                                               \
      int check_rank_ = -1;                                                                      \
      MPI_Comm_rank(MPI_COMM_WORLD, &check_rank_);                                               \
      fprintf(stderr, "CHECK failed on rank %d at %s:%d: %s\n", check_rank_, __FILE__, __LINE__, \
              #cond);                                                                            \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                              \
    }                                                                                            \
  } while (0)

/* MPI_Error_class of a return code. */
static inline int error_class(int code) {
  int cls = -1;
  MPI_Error_class(code, &cls);
  return cls;
}
/* This rank, the world's size and the ring neighbours (left/right may be NULL). */
static inline void world_ring(int* rank, int* size, int* left, int* right) {
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  if (left != NULL) *left = (*rank - 1 + *size) % *size;
  if (right != NULL) *right = (*rank + 1) % *size;
}
#endif
