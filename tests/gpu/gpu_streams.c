/* The stream-ordered extension on a real CUDA stream: each round queues a copy of new input to
 * the device on the stream, then MPIX_Allreduce_enqueue, MPIX_Isend/Irecv/Waitall_enqueue on a
 * communicator bound to that stream, then a copy of the results back, and only then waits for
 * the stream. The results must be those of this round: the calls ran after the input copy and
 * before the output copy. Exits 77 (skipped) where CUDA sees no device. */
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../mpi/check.h"

#define CHECK_CUDA(call) CHECK((call) == cudaSuccess)
enum { kCount = 1 << 16, kRounds = 4 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, devices = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    if (rank == 0) printf("gpu_streams: no CUDA device, skipped\n");
    MPI_Finalize();
    return 77;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  cudaStream_t cuda;
  CHECK_CUDA(cudaStreamCreateWithFlags(&cuda, cudaStreamNonBlocking));
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "type", "cudaStream_t"));
  CHECK_MPI(MPIX_Info_set_hex(info, "value", &cuda, sizeof cuda));
  MPIX_Stream stream;
  CHECK_MPI(MPIX_Stream_create(info, &stream));
  MPI_Comm scomm;
  CHECK_MPI(MPIX_Stream_comm_create(MPI_COMM_WORLD, stream, &scomm));

  int *in, *sum, *from_left, *host_in, *host_sum, *host_left;
  CHECK_CUDA(cudaMalloc((void**)&in, kCount * sizeof(int)));
  CHECK_CUDA(cudaMalloc((void**)&sum, kCount * sizeof(int)));
  CHECK_CUDA(cudaMalloc((void**)&from_left, kCount * sizeof(int)));
  CHECK_CUDA(cudaMallocHost((void**)&host_in, kCount * sizeof(int)));
  CHECK_CUDA(cudaMallocHost((void**)&host_sum, kCount * sizeof(int)));
  CHECK_CUDA(cudaMallocHost((void**)&host_left, kCount * sizeof(int)));
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (int round = 0; round < kRounds; ++round) {
    check_context("round %d", round);
    for (int i = 0; i < kCount; ++i) host_in[i] = (rank + 1) * 1000 + round * 7 + i % 97;
    CHECK_CUDA(cudaMemcpyAsync(in, host_in, kCount * sizeof(int), cudaMemcpyHostToDevice, cuda));
    CHECK_MPI(MPIX_Allreduce_enqueue(in, sum, kCount, MPI_INT, MPI_SUM, scomm));
    MPI_Request r[2];
    CHECK_MPI(MPIX_Irecv_enqueue(from_left, kCount, MPI_INT, left, round, scomm, &r[0]));
    CHECK_MPI(MPIX_Isend_enqueue(in, kCount, MPI_INT, right, round, scomm, &r[1]));
    CHECK_MPI(MPIX_Waitall_enqueue(2, r, MPI_STATUSES_IGNORE));
    CHECK_CUDA(cudaMemcpyAsync(host_sum, sum, kCount * sizeof(int), cudaMemcpyDeviceToHost, cuda));
    CHECK_CUDA(
        cudaMemcpyAsync(host_left, from_left, kCount * sizeof(int), cudaMemcpyDeviceToHost, cuda));
    CHECK_CUDA(cudaStreamSynchronize(cuda));
    for (int i = 0; i < kCount; ++i) {
      int expected = 0;
      for (int r2 = 0; r2 < size; ++r2) expected += (r2 + 1) * 1000 + round * 7 + i % 97;
      CHECK(host_sum[i] == expected);
      CHECK(host_left[i] == (left + 1) * 1000 + round * 7 + i % 97);
    }
  }
  CHECK_MPI(MPI_Comm_free(&scomm));
  CHECK_MPI(MPIX_Stream_free(&stream));
  MPI_Info_free(&info);
  cudaFree(in), cudaFree(sum), cudaFree(from_left);
  cudaFreeHost(host_in), cudaFreeHost(host_sum), cudaFreeHost(host_left);
  cudaStreamDestroy(cuda);
  if (rank == 0) printf("gpu_streams: ok on %d rank(s)\n", size);
  MPI_Finalize();
  return 0;
}
