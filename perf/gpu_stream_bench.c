/* Stream-ordered point-to-point between ranks 0 and 1 with device buffers: what a program that
 * queues its work on a CUDA stream pays per message. "enqueue": MPIX_Send_enqueue and
 * MPIX_Recv_enqueue on a communicator bound to the stream, the host waiting for the stream once
 * per size; "host": the same ping-pong without the extension, cudaStreamSynchronize before each
 * MPI_Send. Latency is half a round trip (OSU's osu_latency), as the stream sees it for
 * "enqueue"; "issue" is the host's time inside the two enqueue calls of a round trip, the time the
 * extension leaves to the application. After each size's enqueue run, rank 1's buffer is copied
 * to the host and checked against rank 0's pattern (#wrong: bytes that differ); the program
 * exits 1 if any did.
 * usage: weftrun -n 2 gpu_stream_bench [-m MAX_BYTES] [-n ITERS] [-w WARMUP]
 *   sizes 1 B to MAX_BYTES (default 4 MiB), doubling; above 64 KiB a tenth of the iterations. */
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_pattern.h"

enum { kTag = 1 };

static void cuda_call(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  fprintf(stderr, "gpu_stream_bench: %s failed: %s\n", what, cudaGetErrorString(e));
  MPI_Abort(MPI_COMM_WORLD, 3);
}

static void mpi_call(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  fprintf(stderr, "gpu_stream_bench: %s failed (error %d)\n", what, rc);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

/* Rank 0's buffer holds the size's pattern, rank 1's zeros. */
static void prepare(int rank, void* buf, size_t bytes) {
  cuda_call(pattern_put(buf, bytes, rank != 0), "cudaMemcpy");
}

static long wrong_bytes(const void* buf, size_t bytes) {
  const long wrong = pattern_wrong(buf, bytes);
  if (wrong < 0) cuda_call(cudaErrorUnknown, "cudaMemcpy");
  return wrong;
}

/* One round trip queued on the stream of `scomm`. */
static void enqueue_round(int rank, void* buf, size_t bytes, MPI_Comm scomm) {
  const int peer = 1 - rank;
  if (rank == 0) {
    mpi_call(MPIX_Send_enqueue(buf, (int)bytes, MPI_BYTE, peer, kTag, scomm), "MPIX_Send_enqueue");
    mpi_call(MPIX_Recv_enqueue(buf, (int)bytes, MPI_BYTE, peer, kTag, scomm, MPI_STATUS_IGNORE),
             "MPIX_Recv_enqueue");
  } else {
    mpi_call(MPIX_Recv_enqueue(buf, (int)bytes, MPI_BYTE, peer, kTag, scomm, MPI_STATUS_IGNORE),
             "MPIX_Recv_enqueue");
    mpi_call(MPIX_Send_enqueue(buf, (int)bytes, MPI_BYTE, peer, kTag, scomm), "MPIX_Send_enqueue");
  }
}

/* Half a round trip through the stream; *issue_us: the host's time per round trip in the calls. */
static double enqueue_latency_us(int rank, void* buf, size_t bytes, int iters, int warmup,
                                 MPI_Comm scomm, cudaStream_t stream, double* issue_us) {
  for (int i = 0; i < warmup; ++i) enqueue_round(rank, buf, bytes, scomm);
  cuda_call(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  MPI_Barrier(MPI_COMM_WORLD);
  double issue = 0;
  const double start = MPI_Wtime();
  for (int i = 0; i < iters; ++i) {
    const double t0 = MPI_Wtime();
    enqueue_round(rank, buf, bytes, scomm);
    issue += MPI_Wtime() - t0;
  }
  cuda_call(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  const double elapsed = MPI_Wtime() - start;
  *issue_us = issue * 1e6 / iters;
  return elapsed * 1e6 / (2.0 * iters);
}

/* The same ping-pong with plain calls, the stream waited for before each send. */
static double host_latency_us(int rank, void* buf, size_t bytes, int iters, int warmup,
                              cudaStream_t stream) {
  const int peer = 1 - rank;
  double start = 0;
  for (int i = 0; i < warmup + iters; ++i) {
    if (i == warmup) start = MPI_Wtime();
    if (rank == 1)
      MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    cuda_call(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    MPI_Send(buf, (int)bytes, MPI_BYTE, peer, kTag, MPI_COMM_WORLD);
    if (rank == 0)
      MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return (MPI_Wtime() - start) * 1e6 / (2.0 * iters);
}

int main(int argc, char** argv) {
  size_t max_bytes = (size_t)4 << 20;
  int iters = 1000, warmup = 100, c, parsed = 1;
  while ((c = getopt(argc, argv, "m:n:w:")) != -1) {
    if (c == 'm')
      max_bytes = (size_t)strtoull(optarg, NULL, 10);
    else if (c == 'n')
      iters = atoi(optarg);
    else if (c == 'w')
      warmup = atoi(optarg);
    else
      parsed = 0;
  }
  parsed = parsed && optind == argc && max_bytes > 0 && iters > 0 && warmup > 0;
  if (parsed) cuda_call(cudaSetDevice(0), "cudaSetDevice(0)");
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (!parsed || size != 2) {
    if (rank == 0)
      fprintf(stderr,
              "usage: weftrun -n 2 gpu_stream_bench [-m MAX_BYTES] [-n ITERS] [-w WARMUP]\n");
    MPI_Finalize();
    return 2;
  }
  cudaStream_t stream;
  cuda_call(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "type", "cudaStream_t");
  mpi_call(MPIX_Info_set_hex(info, "value", &stream, sizeof stream), "MPIX_Info_set_hex");
  MPIX_Stream mpi_stream;
  mpi_call(MPIX_Stream_create(info, &mpi_stream), "MPIX_Stream_create");
  MPI_Info_free(&info);
  MPI_Comm scomm;
  mpi_call(MPIX_Stream_comm_create(MPI_COMM_WORLD, mpi_stream, &scomm), "MPIX_Stream_comm_create");
  void* buf = NULL;
  cuda_call(cudaMalloc(&buf, max_bytes), "cudaMalloc");
  long wrong_total = 0;
  if (rank == 0)
    printf(
        "# Weft stream-ordered point-to-point, device to device buffers\n"
        "# %-10s %14s %12s %14s %8s\n",
        "size", "enqueue(us)", "issue(us)", "host-wait(us)", "#wrong");
  for (size_t bytes = 1; bytes <= max_bytes; bytes *= 2) {
    const int n = bytes > 65536 ? (iters / 10 > 10 ? iters / 10 : 10) : iters;
    const int w = bytes > 65536 ? (warmup / 10 > 2 ? warmup / 10 : 2) : warmup;
    prepare(rank, buf, bytes);
    double issue = 0;
    const double queued = enqueue_latency_us(rank, buf, bytes, n, w, scomm, stream, &issue);
    long wrong = rank == 1 ? wrong_bytes(buf, bytes) : 0;
    MPI_Bcast(&wrong, 1, MPI_LONG, 1, MPI_COMM_WORLD);
    wrong_total += wrong;
    MPI_Barrier(MPI_COMM_WORLD);
    const double waited = host_latency_us(rank, buf, bytes, n, w, stream);
    if (rank == 0)
      printf("  %-10zu %14.2f %12.2f %14.2f %8ld\n", bytes, queued, issue, waited, wrong);
  }
  cuda_call(cudaFree(buf), "cudaFree");
  MPI_Comm_free(&scomm);
  MPIX_Stream_free(&mpi_stream);
  cudaStreamDestroy(stream);
  MPI_Finalize();
  return wrong_total == 0 ? 0 : 1;
}
