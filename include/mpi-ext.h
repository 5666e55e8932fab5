/* mpi-ext.h: where Open MPI programs look for its extensions (MPIX_Query_cuda_support,
 * MPIX_CUDA_AWARE_SUPPORT). Weft declares its extensions in mpi.h; this header lets such
 * programs build unchanged. */
#ifndef WEFT_MPI_EXT_H
#define WEFT_MPI_EXT_H
#include <mpi.h>
#endif /* WEFT_MPI_EXT_H */
