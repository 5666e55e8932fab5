/* Point-to-point with GPU buffers: a ring of blocking and nonblocking transfers between pairs of
 * memory kinds (device, host, managed, pinned, the cudaMallocAsync pool) at 8 B, 100 kB and
 * 4 MiB, Sendrecv, receives from MPI_ANY_SOURCE, and a strided vector datatype on device
 * memory. Every receive is copied back to the host and compared with what the sender put in.
 * Also checks that Weft says it is CUDA-aware (MPIX_Query_cuda_support): the program runs only
 * where CUDA sees a device (a GPU, or the fake driver of the gpu.fake tests). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_common.h"

/* Weft's CUDA query (mpi.h declares it in builds that have it; weak so that this program
 * still links and reports its absence). */
int MPIX_Query_cuda_support(void) __attribute__((weak));

typedef struct {
  MemKind send, recv;
} KindPair;
static const KindPair kPairs[] = {
    {MEM_DEVICE, MEM_DEVICE}, {MEM_HOST, MEM_DEVICE},     {MEM_DEVICE, MEM_HOST},
    {MEM_MANAGED, MEM_MANAGED}, {MEM_PINNED, MEM_DEVICE}, {MEM_DEVICE, MEM_PINNED},
    {MEM_MANAGED, MEM_DEVICE},  {MEM_POOL, MEM_POOL},     {MEM_POOL, MEM_HOST},
};
static const size_t kSizes[] = {8, 100000, 4u << 20};
enum { kNumPairs = sizeof kPairs / sizeof kPairs[0], kNumSizes = sizeof kSizes / sizeof kSizes[0] };

static int right(void) { return (g_rank + 1) % g_size; }
static int left(void) { return (g_rank + g_size - 1) % g_size; }

static void check_cuda_support(void) {
  if (MPIX_Query_cuda_support == NULL) {
    fail("the library has no MPIX_Query_cuda_support");
    return;
  }
  if (MPIX_Query_cuda_support() != 1)
    fail("MPIX_Query_cuda_support() is %d where CUDA sees a device, expected 1",
         MPIX_Query_cuda_support());
#ifdef MPIX_GPU_SUPPORT_CUDA
  int supported = -1;
  check_mpi(MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &supported), "MPIX_GPU_query_support");
  if (supported != 1) fail("MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA) gave %d", supported);
#endif
}

/* The host copy of `bytes` received into `buf`, checked against the left neighbour's pattern. */
static void check_received(const char* what, const void* buf, size_t bytes, int source, int salt) {
  unsigned char* host = malloc(bytes);
  mem_copy(host, buf, bytes);
  check_pattern(what, host, bytes, source, 0, salt);
  free(host);
}

/* One ring step: every rank sends `bytes` to its right and receives from its left. Blocking:
 * rank 0 sends first, the others receive first (a chain, no deadlock at any size). */
static void ring(KindPair pair, size_t bytes, int nonblocking, int salt) {
  char what[160];
  snprintf(what, sizeof what, "%s ring %s->%s, %zu bytes",
           nonblocking ? "Isend/Irecv" : "Send/Recv", kMemKindNames[pair.send],
           kMemKindNames[pair.recv], bytes);
  void* send = pattern_in(pair.send, bytes, g_rank, salt);
  void* recv = mem_alloc(pair.recv, bytes);
  mem_set(pair.recv, recv, 0, bytes);
  MPI_Status status;
  if (nonblocking) {
    MPI_Request requests[2];
    MPI_Status statuses[2];
    check_mpi(MPI_Irecv(recv, (int)bytes, MPI_BYTE, left(), salt, MPI_COMM_WORLD, &requests[0]),
              "MPI_Irecv");
    check_mpi(MPI_Isend(send, (int)bytes, MPI_BYTE, right(), salt, MPI_COMM_WORLD, &requests[1]),
              "MPI_Isend");
    check_mpi(MPI_Waitall(2, requests, statuses), "MPI_Waitall");
    status = statuses[0];
  } else if (g_rank == 0) {
    check_mpi(MPI_Send(send, (int)bytes, MPI_BYTE, right(), salt, MPI_COMM_WORLD), "MPI_Send");
    check_mpi(MPI_Recv(recv, (int)bytes, MPI_BYTE, left(), salt, MPI_COMM_WORLD, &status),
              "MPI_Recv");
  } else {
    check_mpi(MPI_Recv(recv, (int)bytes, MPI_BYTE, left(), salt, MPI_COMM_WORLD, &status),
              "MPI_Recv");
    check_mpi(MPI_Send(send, (int)bytes, MPI_BYTE, right(), salt, MPI_COMM_WORLD), "MPI_Send");
  }
  int count = -1;
  MPI_Get_count(&status, MPI_BYTE, &count);
  if (count != (int)bytes) fail("%s: MPI_Get_count is %d", what, count);
  check_received(what, recv, bytes, left(), salt);
  mem_free(pair.send, send);
  mem_free(pair.recv, recv);
}

/* Sendrecv and Sendrecv_replace between device buffers around the ring. */
static void sendrecv(size_t bytes, int salt) {
  char what[96];
  void* send = pattern_in(MEM_DEVICE, bytes, g_rank, salt);
  void* recv = mem_alloc(MEM_DEVICE, bytes);
  mem_set(MEM_DEVICE, recv, 0, bytes);
  check_mpi(MPI_Sendrecv(send, (int)bytes, MPI_BYTE, right(), 7, recv, (int)bytes, MPI_BYTE,
                         left(), 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Sendrecv");
  snprintf(what, sizeof what, "Sendrecv device, %zu bytes", bytes);
  check_received(what, recv, bytes, left(), salt);
  check_mpi(MPI_Sendrecv_replace(send, (int)bytes, MPI_BYTE, right(), 8, left(), 8,
                                 MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Sendrecv_replace");
  snprintf(what, sizeof what, "Sendrecv_replace device, %zu bytes", bytes);
  check_received(what, send, bytes, left(), salt);
  mem_free(MEM_DEVICE, send);
  mem_free(MEM_DEVICE, recv);
}

/* Every other rank sends rank 0 a device message of its own length, tagged `salt`; rank 0 takes
 * them in arrival order with MPI_ANY_SOURCE into one device buffer. (The tag keeps a sender's
 * next round out: nothing orders it after the other senders' messages of this one.) */
static void any_source(size_t base_bytes, int salt) {
  size_t most = base_bytes + (size_t)g_size;
  if (g_rank != 0) {
    size_t bytes = base_bytes + (size_t)g_rank;
    void* send = pattern_in(MEM_DEVICE, bytes, g_rank, salt);
    check_mpi(MPI_Send(send, (int)bytes, MPI_BYTE, 0, salt, MPI_COMM_WORLD), "MPI_Send");
    mem_free(MEM_DEVICE, send);
    return;
  }
  void* recv = mem_alloc(MEM_DEVICE, most);
  int* seen = calloc((size_t)g_size, sizeof(int));
  for (int k = 1; k < g_size; ++k) {
    MPI_Status status;
    check_mpi(MPI_Recv(recv, (int)most, MPI_BYTE, MPI_ANY_SOURCE, salt, MPI_COMM_WORLD, &status),
              "MPI_Recv(MPI_ANY_SOURCE)");
    int source = status.MPI_SOURCE, count = -1;
    MPI_Get_count(&status, MPI_BYTE, &count);
    if (source < 1 || source >= g_size || seen[source]++ || status.MPI_TAG != salt ||
        count != (int)(base_bytes + (size_t)source)) {
      fail("any-source receive %d: source %d, tag %d, %d bytes", k, source, status.MPI_TAG, count);
      continue;
    }
    char what[96];
    snprintf(what, sizeof what, "any-source receive from %d, %d bytes", source, count);
    check_received(what, recv, (size_t)count, source, salt);
  }
  free(seen);
  mem_free(MEM_DEVICE, recv);
}

/* A vector of doubles (blocks of 3, stride 5) sent from device memory, received contiguous and
 * as the same vector into device memory whose gaps must keep their old value. */
static void vector_on_device(void) {
  enum { kBlocks = 1000, kBlockLength = 3, kStride = 5, kSpan = kBlocks * kStride };
  MPI_Datatype vector;
  MPI_Type_vector(kBlocks, kBlockLength, kStride, MPI_DOUBLE, &vector);
  MPI_Type_commit(&vector);
  double* host = malloc(kSpan * sizeof(double));
  for (int i = 0; i < kSpan; ++i) host[i] = g_rank * 100000.0 + i;
  double* send = mem_alloc(MEM_DEVICE, kSpan * sizeof(double));
  double* recv = mem_alloc(MEM_DEVICE, kSpan * sizeof(double));
  mem_copy(send, host, kSpan * sizeof(double));

  check_mpi(MPI_Sendrecv(send, 1, vector, right(), 3, recv, kBlocks * kBlockLength, MPI_DOUBLE,
                         left(), 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Sendrecv(vector)");
  mem_copy(host, recv, kBlocks * kBlockLength * sizeof(double));
  for (int b = 0, bad = 0; b < kBlocks && !bad; ++b)
    for (int j = 0; j < kBlockLength && !bad; ++j) {
      double want = left() * 100000.0 + b * kStride + j;
      if (host[b * kBlockLength + j] != want)
        bad = 1, fail("vector -> contiguous: element %d is %g, expected %g", b * kBlockLength + j,
                      host[b * kBlockLength + j], want);
    }

  for (int i = 0; i < kSpan; ++i) host[i] = -1.0;
  mem_copy(recv, host, kSpan * sizeof(double));
  check_mpi(MPI_Sendrecv(send, 1, vector, right(), 4, recv, 1, vector, left(), 4, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE), "MPI_Sendrecv(vector, vector)");
  mem_copy(host, recv, kSpan * sizeof(double));
  for (int i = 0; i < kSpan; ++i) {
    double want = i % kStride < kBlockLength ? left() * 100000.0 + i : -1.0;
    if (host[i] != want) {
      fail("vector -> vector: element %d is %g, expected %g", i, host[i], want);
      break;
    }
  }
  free(host);
  mem_free(MEM_DEVICE, send);
  mem_free(MEM_DEVICE, recv);
  MPI_Type_free(&vector);
}

int main(int argc, char** argv) {
  gpu_test_init(&argc, &argv, "gpu_pt2pt");
  check_cuda_support();
  int salt = 1;
  for (int p = 0; p < kNumPairs; ++p)
    for (int s = 0; s < kNumSizes; ++s)
      for (int nonblocking = 0; nonblocking <= 1; ++nonblocking)
        ring(kPairs[p], kSizes[s], nonblocking, salt++);
  sendrecv(8, salt++);
  sendrecv(4u << 20, salt++);
  any_source(8, salt++);
  any_source(4u << 20, salt++);
  vector_on_device();
  return gpu_test_finish();
}
