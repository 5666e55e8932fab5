/* What perf/gpu_coll_bench.c (Weft on device or host buffers) and perf/nccl_bench.c (NCCL)
 * share, so that their figures line up: options, nccl-tests' sizes and bus factors, the values
 * sent and their check, the timing loop and the output. Each program supplies only the call. */
#ifndef WEFT_PERF_GPU_BENCH_COMMON_H
#define WEFT_PERF_GPU_BENCH_COMMON_H
#include <stddef.h>

typedef enum { BENCH_ALLREDUCE, BENCH_ALLGATHER, BENCH_REDUCE_SCATTER, BENCH_NUM_COLLS } BenchColl;

typedef struct {
  size_t min_bytes, max_bytes; /* -b, -e: sizes as nccl-tests counts them (below) */
  int factor;                  /* -f: each size is the last times this */
  int iters, warmup;           /* -n, -w */
  int host;                    /* -H: host buffers, no GPU needed (gpu_coll_bench only) */
  int colls[BENCH_NUM_COLLS];  /* -c: which collectives run */
} BenchOptions;

/* The collective under test: `count` as below; done (results in recv) when sync returns. */
typedef struct {
  void (*call)(void* context, BenchColl c, const void* send, void* recv, size_t count,
               int nranks);
  void (*sync)(void* context); /* may be NULL: the calls are done when they return */
  void* context;
} BenchCalls;

/* Parses the shared options; prints the usage and returns 0 when they are wrong. `program`
 * names the program in the usage; `host_allowed` says whether -H exists. */
int bench_parse(int argc, char** argv, const char* program, int host_allowed, BenchOptions* o);
const char* bench_coll_name(BenchColl c);
/* Aborts the job (or exits, before MPI_Init) when a CUDA call failed. */
void bench_cuda_call(int cuda_error, const char* call);

/* nccl-tests' conventions: `bytes` is the larger of a rank's two buffers (allreduce: the
 * vector; allgather: the gathered result; reduce_scatter: the input of all blocks); count is
 * its elements (floats), a multiple of nranks for the block collectives, whose block (what one
 * rank contributes or receives) is count / nranks. */
size_t bench_send_count(BenchColl c, size_t count, int nranks);
size_t bench_recv_count(BenchColl c, size_t count, int nranks);
/* busbw / algbw: 2(n-1)/n for allreduce, (n-1)/n for allgather and reduce_scatter. */
double bench_bus_factor(BenchColl c, int nranks);

/* Every chosen collective at every size on MPI_COMM_WORLD; rank 0 prints a header naming
 * `what` and one line per size: size, count, type, redop, time, algbw, busbw, #wrong.
 * Per size: the first warm-up call's result is copied to the host and checked (#wrong: the
 * elements, over all ranks, that differ from the exact answer); after the warm-ups, a barrier
 * and the timed calls back to back (options' -n, fewer where that would pass about a second),
 * then sync. time is each rank's elapsed time / calls, the maximum over ranks; algbw = size /
 * time (GB = 1e9 bytes), busbw = algbw * bus factor. */
void bench_run(const BenchOptions* o, const BenchCalls* calls, const char* what);

#endif
