/* Bus bandwidth of Weft's MPI_Allreduce (MPI_SUM), MPI_Allgather and MPI_Reduce_scatter_block
 * (MPI_SUM) on float CUDA device buffers, or with -H on host buffers, in nccl-tests' terms, so
 * that perf/nccl_bench.c's figures for NCCL itself sit beside them. Options, sizes, timing and
 * output: perf/gpu_bench_common.h (`gpu_coll_bench -h` prints the options). Every rank uses
 * device 0; a run on host buffers needs no GPU. */
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>

#include "gpu_bench_common.h"

static void call(void* context, BenchColl c, const void* send, void* recv, size_t count,
                 int nranks) {
  (void)context;
  int n = (int)(c == BENCH_ALLREDUCE ? count : count / (size_t)nranks);
  int code;
  if (c == BENCH_ALLREDUCE)
    code = MPI_Allreduce(send, recv, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  else if (c == BENCH_ALLGATHER)
    code = MPI_Allgather(send, n, MPI_FLOAT, recv, n, MPI_FLOAT, MPI_COMM_WORLD);
  else
    code = MPI_Reduce_scatter_block(send, recv, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  if (code != MPI_SUCCESS) {
    fprintf(stderr, "gpu_coll_bench: MPI %s returned %d\n", bench_coll_name(c), code);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
}

int main(int argc, char** argv) {
  BenchOptions o;
  int parsed = bench_parse(argc, argv, "gpu_coll_bench", 1, &o);
  if (parsed && !o.host) bench_cuda_call(cudaSetDevice(0), "gpu_coll_bench: cudaSetDevice(0)");
  MPI_Init(&argc, &argv);
  if (parsed) {
    int nranks;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    char what[128];
    snprintf(what, sizeof what, "Weft, %d ranks, %s buffers", nranks,
             o.host ? "host (malloc)" : "device (cudaMalloc, all ranks on device 0)");
    BenchCalls calls = {call, NULL, NULL};
    bench_run(&o, &calls, what);
  }
  MPI_Finalize();
  return parsed ? 0 : 2;
}
