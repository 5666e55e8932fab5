/* What the GPU test programs share: buffers of each memory kind, copies to and from them, the
 * small-integer values they send (so that float sums are exact), the host computation of a
 * reduction, and failure counting that decides the program's exit status. */
#ifndef WEFT_TESTS_GPU_COMMON_H
#define WEFT_TESTS_GPU_COMMON_H
#include <mpi.h>
#include <stddef.h>

/* MEM_POOL: device memory from the stream-ordered pool (cudaMallocAsync). */
typedef enum { MEM_HOST, MEM_DEVICE, MEM_MANAGED, MEM_PINNED, MEM_POOL } MemKind;
extern const char* const kMemKindNames[]; /* "host", "device", "managed", "pinned" */

extern int g_rank, g_size;

/* MPI_Init, device 0 for every rank (they share it), g_rank and g_size. */
void gpu_test_init(int* argc, char*** argv, const char* program);
/* Counts every rank's failures; rank 0 prints "<program>: ok" or the total. MPI_Finalize.
 * Returns the exit status: 0 when no rank failed. */
int gpu_test_finish(void);
/* Records a wrong result (printed with the rank) and goes on. */
void fail(const char* format, ...) __attribute__((format(printf, 1, 2)));
/* Records a failure when an MPI call did not return MPI_SUCCESS. */
void check_mpi(int code, const char* call);

/* A buffer of `bytes` in memory of that kind; aborts the job when none can be had. */
void* mem_alloc(MemKind kind, size_t bytes);
void mem_free(MemKind kind, void* p);
/* Copies between any two buffers (cudaMemcpy with cudaMemcpyDefault), done on return. */
void mem_copy(void* dst, const void* src, size_t bytes);
/* Fills with one byte value (cudaMemset, or memset for host memory). */
void mem_set(MemKind kind, void* p, int byte, size_t bytes);

/* The byte rank `rank` puts at offset i of message `salt`. */
unsigned char pattern_byte(int rank, size_t i, int salt);
/* A new buffer of `kind` holding `rank`'s pattern for `salt` from offset 0. */
void* pattern_in(MemKind kind, size_t bytes, int rank, int salt);
/* Checks `bytes` received bytes (host copy) against `rank`'s pattern starting at `first`. */
void check_pattern(const char* what, const unsigned char* got, size_t bytes, int rank,
                   size_t first, int salt);

/* Typed values: element i of rank `rank`'s vector for test `salt`, a small integer. */
double value_of(int rank, size_t i, int salt);
size_t type_bytes(MPI_Datatype type); /* MPI_FLOAT, MPI_DOUBLE or MPI_INT */
const char* type_name(MPI_Datatype type);
void store_value(MPI_Datatype type, void* host, size_t i, double v);
double load_value(MPI_Datatype type, const void* host, size_t i);
/* host[i] = value_of(rank, first + i, salt) for i < n. */
void fill_values(MPI_Datatype type, void* host, size_t n, int rank, size_t first, int salt);
/* A new buffer of `kind` holding `rank`'s values first..first+n-1 of `type` for test `salt`. */
void* values_in(MemKind kind, MPI_Datatype type, size_t n, int rank, size_t first, int salt);
/* expect[i] = op (MPI_SUM or MPI_MAX) over ranks first_rank..last_rank of
 * value_of(rank, first + i, salt). */
void reduce_on_host(MPI_Op op, double* expect, size_t n, int first_rank, int last_rank,
                    size_t first, int salt);
/* Compares n received elements (host copy) with expect; reports the first few differences. */
void check_values(const char* what, MPI_Datatype type, const void* got, const double* expect,
                  size_t n);

#endif
