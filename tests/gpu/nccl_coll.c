/* The collectives of the NCCL path (coll/nccl_path.hpp) on cudaMalloc'd buffers: bcast, reduce,
 * allreduce, allgather, reduce_scatter_block and alltoall, in place and not, on a short vector
 * and a long one (1 MiB), each result copied back and compared with one
 * computed on the host. At one rank NCCL runs them; at two ranks on one GPU NCCL refuses the
 * communicator ("Duplicate GPU detected") and Weft's own schedules must give the same answers.
 * Exits 77 (skipped) where CUDA sees no device. It says how many calls ran through NCCL, and
 * checks that count against WEFT_TEST_NCCL_CALLS (all, some or none) where set. */
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mpi/check.h"
#include "nccl_counter.h"

#define CHECK_CUDA(call) CHECK((call) == cudaSuccess)

static int rank, size;
static int calls; /* collective calls made */

/* A device copy of `bytes` of `host` (uninitialised device memory for a null `host`). */
static void* to_device(const void* host, size_t bytes) {
  void* d = NULL;
  CHECK_CUDA(cudaMalloc(&d, bytes ? bytes : 1));
  if (bytes && host) CHECK_CUDA(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
  return d;
}
static void from_device(void* host, const void* d, size_t bytes) {
  CHECK_CUDA(cudaMemcpy(host, d, bytes, cudaMemcpyDeviceToHost));
}

/* Rank r's input element i: small integers, so float sums are exact. */
static int value(int r, int i) { return (r * 7 + i) % 13 - 6; }

static void check_allreduce(int n, int in_place) {
  check_context("allreduce of %d floats (SUM) and ints (MAX), %s", n, in_place ? "in place" : "");
  float* f = malloc(sizeof(float) * (size_t)n);
  int* k = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; ++i) f[i] = (float)value(rank, i), k[i] = value(rank, i);
  float* df = to_device(f, sizeof(float) * (size_t)n);
  int* dk = to_device(k, sizeof(int) * (size_t)n);
  float* out_f = in_place ? df : to_device(NULL, sizeof(float) * (size_t)n);
  int* out_k = in_place ? dk : to_device(NULL, sizeof(int) * (size_t)n);
  CHECK_MPI(
      MPI_Allreduce(in_place ? MPI_IN_PLACE : df, out_f, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD));
  CHECK_MPI(
      MPI_Allreduce(in_place ? MPI_IN_PLACE : dk, out_k, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  calls += 2;
  from_device(f, out_f, sizeof(float) * (size_t)n);
  from_device(k, out_k, sizeof(int) * (size_t)n);
  for (int i = 0; i < n; ++i) {
    int sum = 0, max = value(0, i);
    for (int r = 0; r < size; ++r) sum += value(r, i), max = value(r, i) > max ? value(r, i) : max;
    CHECK(f[i] == (float)sum);
    CHECK(k[i] == max);
  }
  cudaFree(df), cudaFree(dk);
  if (!in_place) cudaFree(out_f), cudaFree(out_k);
  free(f), free(k);
}

static void check_bcast_reduce(int n) {
  const int root = size - 1;
  check_context("bcast from %d and reduce (MIN, doubles) to %d of %d elements", root, root, n);
  double* h = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; ++i) h[i] = rank == root ? (double)value(root, i) : -99.0;
  double* d = to_device(h, sizeof(double) * (size_t)n);
  CHECK_MPI(MPI_Bcast(d, n, MPI_DOUBLE, root, MPI_COMM_WORLD));
  ++calls;
  from_device(h, d, sizeof(double) * (size_t)n);
  for (int i = 0; i < n; ++i) CHECK(h[i] == (double)value(root, i));
  for (int i = 0; i < n; ++i) h[i] = (double)value(rank, i);
  CHECK_CUDA(cudaMemcpy(d, h, sizeof(double) * (size_t)n, cudaMemcpyHostToDevice));
  double* out = rank == root ? to_device(NULL, sizeof(double) * (size_t)n) : NULL;
  CHECK_MPI(MPI_Reduce(d, out, n, MPI_DOUBLE, MPI_MIN, root, MPI_COMM_WORLD));
  ++calls;
  if (rank == root) {
    from_device(h, out, sizeof(double) * (size_t)n);
    for (int i = 0; i < n; ++i) {
      int min = value(0, i);
      for (int r = 1; r < size; ++r) min = value(r, i) < min ? value(r, i) : min;
      CHECK(h[i] == (double)min);
    }
    cudaFree(out);
  }
  cudaFree(d);
  free(h);
}

/* allgather, reduce_scatter_block (SUM on ints) and alltoall with blocks of `b` ints. */
static void check_blocks(int b, int in_place) {
  check_context("allgather, reduce_scatter_block, alltoall of %d-int blocks%s", b,
                in_place ? ", in place" : "");
  const size_t all = (size_t)b * (size_t)size;
  int* h = malloc(sizeof(int) * all);
  int* mine = malloc(sizeof(int) * (size_t)b);
  for (int i = 0; i < b; ++i) mine[i] = value(rank, i);
  memset(h, 0, sizeof(int) * all);
  if (in_place) memcpy(h + (size_t)rank * (size_t)b, mine, sizeof(int) * (size_t)b);
  int* d = to_device(h, sizeof(int) * all);
  int* dm = to_device(mine, sizeof(int) * (size_t)b);
  CHECK_MPI(MPI_Allgather(in_place ? MPI_IN_PLACE : dm, b, MPI_INT, d, b, MPI_INT, MPI_COMM_WORLD));
  ++calls;
  from_device(h, d, sizeof(int) * all);
  for (int r = 0; r < size; ++r)
    for (int i = 0; i < b; ++i) CHECK(h[(size_t)r * (size_t)b + (size_t)i] == value(r, i));

  /* reduce_scatter_block: rank r's input block j holds value(r, j*b + i). */
  for (size_t i = 0; i < all; ++i) h[i] = value(rank, (int)i);
  CHECK_CUDA(cudaMemcpy(d, h, sizeof(int) * all, cudaMemcpyHostToDevice));
  CHECK_MPI(MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : d, in_place ? d : dm, b, MPI_INT,
                                     MPI_SUM, MPI_COMM_WORLD));
  ++calls;
  from_device(mine, in_place ? d : dm, sizeof(int) * (size_t)b);
  for (int i = 0; i < b; ++i) {
    int sum = 0;
    for (int r = 0; r < size; ++r) sum += value(r, rank * b + i);
    CHECK(mine[i] == sum);
  }

  /* alltoall: rank r's block for peer p holds value(r * size + p, i). */
  for (int p = 0; p < size; ++p)
    for (int i = 0; i < b; ++i) h[(size_t)p * (size_t)b + (size_t)i] = value(rank * size + p, i);
  CHECK_CUDA(cudaMemcpy(d, h, sizeof(int) * all, cudaMemcpyHostToDevice));
  int* out = in_place ? d : to_device(NULL, sizeof(int) * all);
  CHECK_MPI(MPI_Alltoall(in_place ? MPI_IN_PLACE : d, b, MPI_INT, out, b, MPI_INT, MPI_COMM_WORLD));
  ++calls;
  from_device(h, out, sizeof(int) * all);
  for (int p = 0; p < size; ++p)
    for (int i = 0; i < b; ++i)
      CHECK(h[(size_t)p * (size_t)b + (size_t)i] == value(p * size + rank, i));
  if (!in_place) cudaFree(out);
  cudaFree(d), cudaFree(dm);
  free(h), free(mine);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices <= 0) {
    if (rank == 0)
      printf("gpu_nccl_coll: no CUDA device (%s): skipped\n",
             e != cudaSuccess ? cudaGetErrorString(e) : "none visible");
    MPI_Finalize();
    return 77;
  }
  CHECK_CUDA(cudaSetDevice(rank % devices));
  open_nccl_counter();
  const int sizes[] = {1000, 1 << 18}; /* 4 KB and 1 MiB of 4-byte elements */
  for (int s = 0; s < 2; ++s) {
    for (int in_place = 0; in_place < 2; ++in_place) {
      check_allreduce(sizes[s], in_place);
      check_blocks(sizes[s] / size, in_place);
    }
    check_bcast_reduce(sizes[s]);
  }
  const unsigned long long through_nccl = check_nccl_calls(calls);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("gpu_nccl_coll: ok on %d rank(s), %d device(s), %llu of %d calls through NCCL\n", size,
           devices, through_nccl, calls);
  MPI_Finalize();
  return 0;
}
