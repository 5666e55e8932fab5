/* The measures of perf/gpu_coll_bench.c taken through NCCL itself (ncclAllReduce sum,
 * ncclAllGather, ncclReduceScatter sum on float device buffers), so that one run puts Weft on
 * device buffers, Weft on host buffers and NCCL side by side. MPI starts the ranks and carries
 * NCCL's unique id from rank 0. Each rank takes the GPU of its index on its node; NCCL wants a
 * GPU of its own per rank, so with more ranks on a node than it has GPUs the program says so and
 * exits 3 before NCCL is called (77 when there is no GPU at all). The timed calls are enqueued
 * on one stream back to back, then the stream is synchronized. Options and output:
 * perf/gpu_bench_common.h. */
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>
#include <stdio.h>

#include "gpu_bench_common.h"

typedef struct {
  ncclComm_t comm;
  cudaStream_t stream;
} Nccl;

static void nccl_call(ncclResult_t result, const char* call) {
  if (result == ncclSuccess) return;
  fprintf(stderr, "nccl_bench: %s failed: %s\n", call, ncclGetErrorString(result));
  MPI_Abort(MPI_COMM_WORLD, 4);
}

static void call(void* context, BenchColl c, const void* send, void* recv, size_t count,
                 int nranks) {
  Nccl* nccl = context;
  size_t block = count / (size_t)nranks;
  if (c == BENCH_ALLREDUCE)
    nccl_call(ncclAllReduce(send, recv, count, ncclFloat, ncclSum, nccl->comm, nccl->stream),
              "ncclAllReduce");
  else if (c == BENCH_ALLGATHER)
    nccl_call(ncclAllGather(send, recv, block, ncclFloat, nccl->comm, nccl->stream),
              "ncclAllGather");
  else
    nccl_call(ncclReduceScatter(send, recv, block, ncclFloat, ncclSum, nccl->comm, nccl->stream),
              "ncclReduceScatter");
}

static void sync_stream(void* context) {
  bench_cuda_call(cudaStreamSynchronize(((Nccl*)context)->stream), "cudaStreamSynchronize");
}

/* The GPU this rank takes (its index among the ranks of its node), or -1 after rank 0 said why
 * there is none for some rank; `*code` is then the exit status. */
static int choose_device(int rank, int* code) {
  MPI_Comm node;
  int local = 0, local_size = 1, devices = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local);
  MPI_Comm_size(node, &local_size);
  MPI_Comm_free(&node);
  if (cudaGetDeviceCount(&devices) != cudaSuccess) devices = 0;
  /* Every rank must agree before any of them calls NCCL. */
  int shortfall = local_size > devices ? (devices == 0 ? 2 : 1) : 0, worst = 0;
  MPI_Allreduce(&shortfall, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (worst == 0) return local;
  *code = worst == 2 ? 77 : 3;
  if (rank == 0) {
    if (worst == 2)
      printf("nccl_bench: no CUDA device on some node: NCCL not measured\n");
    else
      printf("nccl_bench: NCCL needs one GPU per rank, and a node has %d ranks but %d GPU(s): "
             "run at most %d rank(s) per node (NCCL refuses ranks that share a GPU)\n",
             local_size, devices, devices);
  }
  return -1;
}

int main(int argc, char** argv) {
  BenchOptions o;
  int parsed = bench_parse(argc, argv, "nccl_bench", 0, &o);
  MPI_Init(&argc, &argv);
  int rank, nranks, code = parsed ? 0 : 2;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  int device = parsed ? choose_device(rank, &code) : -1;
  if (device >= 0) {
    bench_cuda_call(cudaSetDevice(device), "nccl_bench: cudaSetDevice");
    ncclUniqueId id;
    if (rank == 0) nccl_call(ncclGetUniqueId(&id), "ncclGetUniqueId");
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    Nccl nccl;
    bench_cuda_call(cudaStreamCreate(&nccl.stream), "nccl_bench: cudaStreamCreate");
    nccl_call(ncclCommInitRank(&nccl.comm, nranks, id, rank), "ncclCommInitRank");
    int version = 0;
    ncclGetVersion(&version);
    char what[128];
    snprintf(what, sizeof what, "NCCL %d, %d ranks, device buffers (one GPU per rank)", version,
             nranks);
    BenchCalls calls = {call, sync_stream, &nccl};
    bench_run(&o, &calls, what);
    ncclCommDestroy(nccl.comm);
    cudaStreamDestroy(nccl.stream);
  }
  MPI_Finalize();
  return code;
}
