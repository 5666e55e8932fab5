/* The stream-ordered extension on a real CUDA stream. Each round closes a gate on the stream (a
 * host function that holds it until the program opens it), queues a copy of new input to the
 * device, then MPIX_Allreduce_enqueue (out of place, and in place in its _c form),
 * MPIX_Isend/Irecv/Waitall_enqueue, MPIX_Send/Recv_enqueue of a strided datatype and a host-buffer
 * MPIX_Allreduce_enqueue and one of a strided datatype on a communicator bound to that stream,
 * then copies of the results
 * back; only then does it open the gate and wait for the stream. So every enqueue call must
 * return before the stream ran anything (a call that waited for the stream would find the gate
 * shut: the gate gives up after a while and the round fails), and the results must be those of
 * this round: the calls ran after the input copy and before the output copies. The strided
 * receive and allreduce must leave the gaps of their buffers alone. It counts the allreduces
 * that ran through NCCL (nccl_counter.h). Exits 77 (skipped) where CUDA sees no device.
 * usage: gpu_streams [legacy]: a stream made with cudaStreamNonBlocking, or with `legacy` the
 * legacy default stream (a cudaStream_t of 0), which other blocking streams wait for. */
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../mpi/check.h"
#include "nccl_counter.h"

#define CHECK_CUDA(call) CHECK((call) == cudaSuccess)
enum { kCount = 1 << 16, kRounds = 4, kStrided = 1000 };

/* A gate on the stream: the host function holds the stream until `open`, or gives up after ten
 * seconds and notes it. */
struct gate {
  volatile int open, gave_up;
};
static void hold_at_gate(void* data) {
  struct gate* g = data;
  const time_t start = time(NULL);
  while (!g->open) {
    if (time(NULL) - start > 10) {
      g->gave_up = 1;
      return;
    }
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
  }
}

static int input(int rank, int round, int i) { return (rank + 1) * 1000 + round * 7 + i % 97; }

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
  open_nccl_counter();
  int allreduces = 0;
  const int legacy = argc > 1 && strcmp(argv[1], "legacy") == 0;
  cudaStream_t cuda = 0;
  if (!legacy) CHECK_CUDA(cudaStreamCreateWithFlags(&cuda, cudaStreamNonBlocking));
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "type", "cudaStream_t"));
  CHECK_MPI(MPIX_Info_set_hex(info, "value", &cuda, sizeof cuda));
  MPIX_Stream stream;
  CHECK_MPI(MPIX_Stream_create(info, &stream));
  MPI_Comm scomm;
  CHECK_MPI(MPIX_Stream_comm_create(MPI_COMM_WORLD, stream, &scomm));
  MPI_Datatype every_other;  // kStrided ints, one of every two
  CHECK_MPI(MPI_Type_vector(kStrided, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));

  int *in, *sum, *in_place, *from_left, *strided, *strided_sum, *host_in, *host_sum, *host_in_place,
      *host_left, *host_strided, *host_strided_sum;
  const size_t bytes = kCount * sizeof(int), strided_bytes = 2 * kStrided * sizeof(int);
  CHECK_CUDA(cudaMalloc((void**)&in, bytes));
  CHECK_CUDA(cudaMalloc((void**)&sum, bytes));
  CHECK_CUDA(cudaMalloc((void**)&in_place, bytes));
  CHECK_CUDA(cudaMalloc((void**)&from_left, bytes));
  CHECK_CUDA(cudaMalloc((void**)&strided, strided_bytes));
  CHECK_CUDA(cudaMalloc((void**)&strided_sum, strided_bytes));
  CHECK_CUDA(cudaMallocHost((void**)&host_strided_sum, strided_bytes));
  CHECK_CUDA(cudaMallocHost((void**)&host_in, bytes));
  CHECK_CUDA(cudaMallocHost((void**)&host_sum, bytes));
  CHECK_CUDA(cudaMallocHost((void**)&host_in_place, bytes));
  CHECK_CUDA(cudaMallocHost((void**)&host_left, bytes));
  CHECK_CUDA(cudaMallocHost((void**)&host_strided, strided_bytes));
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (int round = 0; round < kRounds; ++round) {
    check_context("round %d", round);
    struct gate g = {0, 0};
    CHECK_CUDA(cudaLaunchHostFunc(cuda, hold_at_gate, &g));
    for (int i = 0; i < kCount; ++i) host_in[i] = input(rank, round, i);
    CHECK_CUDA(cudaMemcpyAsync(in, host_in, bytes, cudaMemcpyHostToDevice, cuda));
    CHECK_CUDA(cudaMemcpyAsync(in_place, host_in, bytes, cudaMemcpyHostToDevice, cuda));
    CHECK_CUDA(cudaMemsetAsync(strided, 0xff, strided_bytes, cuda));
    CHECK_CUDA(cudaMemsetAsync(strided_sum, 0xff, strided_bytes, cuda));
    CHECK_MPI(MPIX_Allreduce_enqueue(in, sum, kCount, MPI_INT, MPI_SUM, scomm));
    CHECK_MPI(MPIX_Allreduce_enqueue_c(MPI_IN_PLACE, in_place, kCount, MPI_INT, MPI_MAX, scomm));
    int mine = rank + round, total = -1;  // host memory: used once the stream gets there
    CHECK_MPI(MPIX_Allreduce_enqueue(&mine, &total, 1, MPI_INT, MPI_SUM, scomm));
    CHECK_MPI(MPIX_Allreduce_enqueue(in, strided_sum, 1, every_other, MPI_SUM, scomm));
    allreduces += 4;
    MPI_Request r[2];
    CHECK_MPI(MPIX_Irecv_enqueue(from_left, kCount, MPI_INT, left, round, scomm, &r[0]));
    CHECK_MPI(MPIX_Isend_enqueue(in, kCount, MPI_INT, right, round, scomm, &r[1]));
    CHECK_MPI(MPIX_Waitall_enqueue(2, r, MPI_STATUSES_IGNORE));
    CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL);
    // Even ranks send first, odd ranks receive first: the stream runs them one after another.
    for (int turn = 0; turn < 2; ++turn) {
      if ((turn == 0) == (rank % 2 == 0))
        CHECK_MPI(MPIX_Send_enqueue(in, 1, every_other, right, 100 + round, scomm));
      else
        CHECK_MPI(MPIX_Recv_enqueue(strided, 1, every_other, left, 100 + round, scomm,
                                    MPI_STATUS_IGNORE));
    }
    CHECK_CUDA(cudaMemcpyAsync(host_sum, sum, bytes, cudaMemcpyDeviceToHost, cuda));
    CHECK_CUDA(cudaMemcpyAsync(host_in_place, in_place, bytes, cudaMemcpyDeviceToHost, cuda));
    CHECK_CUDA(cudaMemcpyAsync(host_left, from_left, bytes, cudaMemcpyDeviceToHost, cuda));
    CHECK_CUDA(cudaMemcpyAsync(host_strided, strided, strided_bytes, cudaMemcpyDeviceToHost, cuda));
    CHECK_CUDA(cudaMemcpyAsync(host_strided_sum, strided_sum, strided_bytes, cudaMemcpyDeviceToHost,
                               cuda));
    g.open = 1;
    CHECK_CUDA(cudaStreamSynchronize(cuda));
    CHECK(!g.gave_up);  // an enqueue call waited for the stream it was to be queued on
    CHECK(total == size * (size - 1) / 2 + size * round);
    for (int i = 0; i < kCount; ++i) {
      int expected = 0;
      for (int r2 = 0; r2 < size; ++r2) expected += input(r2, round, i);
      CHECK(host_sum[i] == expected);
      CHECK(host_in_place[i] == input(size - 1, round, i));
      CHECK(host_left[i] == input(left, round, i));
    }
    for (int i = 0; i < kStrided; ++i) {
      CHECK(host_strided[2 * i] == input(left, round, 2 * i));
      CHECK(host_strided[2 * i + 1] == -1);  // a gap: 0xffffffff, untouched
      int expected = 0;
      for (int r2 = 0; r2 < size; ++r2) expected += input(r2, round, 2 * i);
      CHECK(host_strided_sum[2 * i] == expected);
      CHECK(host_strided_sum[2 * i + 1] == -1);
    }
  }
  /* Two streams in each process, and in each pair of ranks a receive queued on one stream that
   * waits for a send the partner queued on its other stream after a receive of its own. A
   * host function that waited for a receive would keep the driver's host-function thread
   * (which may serve every stream; the fake's does) from the send's, and every rank would wait.
   * Skipped where the stream cannot wait on memory (the fake told not to): there Weft holds
   * streams with such host functions. */
  const char* no_waits = getenv("WEFT_FAKE_CUDA_NO_STREAM_WAIT");
  if ((no_waits == NULL || strcmp(no_waits, "1") != 0) && size % 2 == 0) {
    check_context("a receive on one stream, a send on another");
    cudaStream_t second_cuda;
    CHECK_CUDA(cudaStreamCreateWithFlags(&second_cuda, cudaStreamNonBlocking));
    CHECK_MPI(MPIX_Info_set_hex(info, "value", &second_cuda, sizeof second_cuda));
    MPIX_Stream second;
    CHECK_MPI(MPIX_Stream_create(info, &second));
    MPI_Comm second_comm;
    CHECK_MPI(MPIX_Stream_comm_create(MPI_COMM_WORLD, second, &second_comm));
    const int partner = rank ^ 1;
    for (int i = 0; i < kCount; ++i) host_in[i] = input(rank, 99, i);
    CHECK_CUDA(cudaMemcpy(in, host_in, bytes, cudaMemcpyHostToDevice));
    if (rank % 2 == 0) {
      CHECK_MPI(
          MPIX_Recv_enqueue(from_left, kCount, MPI_INT, partner, 30, scomm, MPI_STATUS_IGNORE));
      CHECK_MPI(MPIX_Send_enqueue(in, kCount, MPI_INT, partner, 31, second_comm));
    } else {
      CHECK_MPI(MPIX_Recv_enqueue(from_left, kCount, MPI_INT, partner, 31, second_comm,
                                  MPI_STATUS_IGNORE));
      CHECK_MPI(MPIX_Send_enqueue(in, kCount, MPI_INT, partner, 30, scomm));
    }
    CHECK_CUDA(cudaStreamSynchronize(cuda));
    CHECK_CUDA(cudaStreamSynchronize(second_cuda));
    CHECK_CUDA(cudaMemcpy(host_left, from_left, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < kCount; ++i) CHECK(host_left[i] == input(partner, 99, i));
    CHECK_MPI(MPI_Comm_free(&second_comm));
    CHECK_MPI(MPIX_Stream_free(&second));
    cudaStreamDestroy(second_cuda);
  }

  check_context("errors of enqueue calls on a CUDA stream");
  int error_class = MPI_SUCCESS;
  MPI_Error_class(MPIX_Send_enqueue(in, 1, MPI_INT, size, 0, scomm), &error_class);
  CHECK(error_class == MPI_ERR_RANK);  // checked by the call itself
  // A failure of queued work (a truncated receive) comes back from the next call, once.
  int pair[2] = {1, 2}, one = 0;
  if (rank == 0) CHECK_MPI(MPIX_Send_enqueue(pair, 2, MPI_INT, 1, 9, scomm));
  if (rank == 1) CHECK_MPI(MPIX_Recv_enqueue(&one, 1, MPI_INT, 0, 9, scomm, MPI_STATUS_IGNORE));
  CHECK_CUDA(cudaStreamSynchronize(cuda));
  if (rank == 1) {
    MPI_Error_class(MPIX_Send_enqueue(in, 1, MPI_INT, MPI_PROC_NULL, 0, scomm), &error_class);
    CHECK(error_class == MPI_ERR_TRUNCATE);
    CHECK_MPI(MPIX_Send_enqueue(in, 1, MPI_INT, MPI_PROC_NULL, 0, scomm));
  }
  // A plain request waits now, in MPIX_Wait_enqueue as in MPI_Wait.
  MPI_Request plain;
  CHECK_MPI(MPI_Irecv(&one, 1, MPI_INT, rank, 10, MPI_COMM_WORLD, &plain));
  CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, rank, 10, MPI_COMM_WORLD));
  CHECK_MPI(MPIX_Wait_enqueue(&plain, MPI_STATUS_IGNORE));
  CHECK(plain == MPI_REQUEST_NULL && one == rank);
  // A request of an enqueue call is MPIX_Wait_enqueue's alone: MPI_Wait, MPI_Test and
  // MPI_Request_free refuse it (MPI_Wait would wait for ever).
  MPI_Request queued;
  int self = 100 + rank, done = 0;
  one = -1;
  CHECK_MPI(MPIX_Irecv_enqueue(&one, 1, MPI_INT, rank, 11, scomm, &queued));
  MPI_Error_class(MPI_Wait(&queued, MPI_STATUS_IGNORE), &error_class);
  CHECK(error_class == MPI_ERR_REQUEST && queued != MPI_REQUEST_NULL);
  MPI_Error_class(MPI_Test(&queued, &done, MPI_STATUS_IGNORE), &error_class);
  CHECK(error_class == MPI_ERR_REQUEST);
  MPI_Error_class(MPI_Request_free(&queued), &error_class);
  CHECK(error_class == MPI_ERR_REQUEST && queued != MPI_REQUEST_NULL);
  CHECK_MPI(MPIX_Send_enqueue(&self, 1, MPI_INT, rank, 11, scomm));
  CHECK_MPI(MPIX_Wait_enqueue(&queued, MPI_STATUS_IGNORE));
  CHECK(queued == MPI_REQUEST_NULL);
  CHECK_CUDA(cudaStreamSynchronize(cuda));
  CHECK(one == 100 + rank);
  CHECK_MPI(MPI_Comm_free(&scomm));
  CHECK_MPI(MPIX_Stream_free(&stream));
  MPI_Type_free(&every_other);
  MPI_Info_free(&info);
  cudaFree(in), cudaFree(sum), cudaFree(in_place), cudaFree(from_left), cudaFree(strided);
  cudaFree(strided_sum), cudaFreeHost(host_strided_sum);
  cudaFreeHost(host_in), cudaFreeHost(host_sum), cudaFreeHost(host_in_place);
  cudaFreeHost(host_left), cudaFreeHost(host_strided);
  if (!legacy) cudaStreamDestroy(cuda);
  const unsigned long long through_nccl = check_nccl_calls(allreduces);
  if (rank == 0)
    printf("gpu_streams: ok on %d rank(s), %s stream, %llu of %d allreduces through NCCL\n", size,
           legacy ? "legacy" : "non-blocking", through_nccl, allreduces);
  MPI_Finalize();
  return 0;
}
