/* Point-to-point latency and bandwidth between ranks 0 and 1 with CUDA buffers, in the OSU
 * micro-benchmarks' terms (osu_latency, osu_bw with buffers D D, H D, D H): latency is half a
 * ping-pong round trip; bandwidth is a window of 64 nonblocking sends answered by one small
 * message, in MB/s (1e6 bytes). Each size's first warm-up message is copied to the host and
 * checked (#wrong: bytes that differ); the program exits 1 if any did.
 * usage: gpu_p2p_bench [-m MAX_BYTES] [-n ITERS] [-w WARMUP] [SEND RECV]
 *   SEND, RECV: D (cudaMalloc, device 0) or H (malloc); default D D. Sizes 1 B to MAX_BYTES
 *   (default 4 MiB), doubling; above 64 KiB a tenth of the iterations (at least 10). */
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_pattern.h"

enum { kWindow = 64, kTag = 1, kAckTag = 2 };

typedef struct {
  size_t max_bytes;
  int iters, warmup;
  int device[2]; /* rank 0's buffers, rank 1's: on the device? */
} Options;

static void cuda_call(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  fprintf(stderr, "gpu_p2p_bench: %s failed: %s\n", what, cudaGetErrorString(e));
  MPI_Abort(MPI_COMM_WORLD, 3);
}

static int parse(int argc, char** argv, Options* o) {
  *o = (Options){(size_t)4 << 20, 1000, 100, {1, 1}};
  int c;
  while ((c = getopt(argc, argv, "m:n:w:h")) != -1) {
    if (c == 'm')
      o->max_bytes = (size_t)strtoull(optarg, NULL, 10);
    else if (c == 'n')
      o->iters = atoi(optarg);
    else if (c == 'w')
      o->warmup = atoi(optarg);
    else
      return 0;
  }
  if (argc - optind == 2) {
    for (int i = 0; i < 2; ++i) {
      const char* k = argv[optind + i];
      if (strcmp(k, "D") != 0 && strcmp(k, "H") != 0) return 0;
      o->device[i] = k[0] == 'D';
    }
  } else if (argc != optind) {
    return 0;
  }
  return o->max_bytes > 0 && o->iters > 0 && o->warmup > 0;
}

static void* buffer(int device, size_t bytes) {
  void* p = NULL;
  if (device)
    cuda_call(cudaMalloc(&p, bytes), "cudaMalloc");
  else
    p = malloc(bytes);
  return p;
}

static void release(int device, void* p) {
  if (device)
    cuda_call(cudaFree(p), "cudaFree");
  else
    free(p);
}

/* Rank 0 fills its buffer with the size's pattern; rank 1 checks what it received. */
static void fill(void* buf, size_t bytes) { cuda_call(pattern_put(buf, bytes, 0), "cudaMemcpy"); }

static long wrong_bytes(const void* buf, size_t bytes) {
  const long wrong = pattern_wrong(buf, bytes);
  if (wrong < 0) cuda_call(cudaErrorUnknown, "cudaMemcpy");
  return wrong;
}

static double latency_us(int rank, void* buf, size_t bytes, int iters, int warmup) {
  double start = 0;
  for (int i = 0; i < warmup + iters; ++i) {
    if (i == warmup) start = MPI_Wtime();
    if (rank == 0) {
      MPI_Send(buf, (int)bytes, MPI_BYTE, 1, kTag, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, (int)bytes, MPI_BYTE, 0, kTag, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - start) * 1e6 / (2.0 * iters);
}

static double bandwidth_mbs(int rank, void* buf, size_t bytes, int iters, int warmup) {
  MPI_Request r[kWindow];
  char ack = 0;
  double start = 0;
  for (int i = 0; i < warmup + iters; ++i) {
    if (i == warmup) start = MPI_Wtime();
    for (int k = 0; k < kWindow; ++k) {
      if (rank == 0)
        MPI_Isend(buf, (int)bytes, MPI_BYTE, 1, kTag, MPI_COMM_WORLD, &r[k]);
      else
        MPI_Irecv(buf, (int)bytes, MPI_BYTE, 0, kTag, MPI_COMM_WORLD, &r[k]);
    }
    MPI_Waitall(kWindow, r, MPI_STATUSES_IGNORE);
    if (rank == 0)
      MPI_Recv(&ack, 1, MPI_CHAR, 1, kAckTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
      MPI_Send(&ack, 1, MPI_CHAR, 0, kAckTag, MPI_COMM_WORLD);
  }
  return (double)bytes * kWindow * iters / ((MPI_Wtime() - start) * 1e6);
}

int main(int argc, char** argv) {
  Options o;
  const int parsed = parse(argc, argv, &o);
  if (parsed && (o.device[0] || o.device[1])) cuda_call(cudaSetDevice(0), "cudaSetDevice(0)");
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (!parsed || size != 2) {
    if (rank == 0)
      fprintf(stderr,
              "usage: weftrun -n 2 gpu_p2p_bench [-m MAX_BYTES] [-n ITERS] [-w WARMUP] "
              "[D|H D|H]\n");
    MPI_Finalize();
    return 2;
  }
  const int device = o.device[rank];
  void* buf = buffer(device, o.max_bytes);
  long wrong_total = 0;
  if (rank == 0)
    printf("# Weft point-to-point, %s to %s buffers\n# %-10s %12s %14s %8s\n",
           o.device[0] ? "device" : "host", o.device[1] ? "device" : "host", "size", "latency(us)",
           "bandwidth(MB/s)", "#wrong");
  for (size_t bytes = 1; bytes <= o.max_bytes; bytes *= 2) {
    const int iters = bytes > 65536 ? (o.iters / 10 > 10 ? o.iters / 10 : 10) : o.iters;
    const int warmup = bytes > 65536 ? (o.warmup / 10 > 2 ? o.warmup / 10 : 2) : o.warmup;
    long wrong = 0;
    if (rank == 0) {
      fill(buf, bytes);
      MPI_Send(buf, (int)bytes, MPI_BYTE, 1, kTag, MPI_COMM_WORLD);
    } else {
      if (device)
        cuda_call(cudaMemset(buf, 0, bytes), "cudaMemset");
      else
        memset(buf, 0, bytes);
      MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      wrong = wrong_bytes(buf, bytes);
    }
    MPI_Bcast(&wrong, 1, MPI_LONG, 1, MPI_COMM_WORLD);
    wrong_total += wrong;
    MPI_Barrier(MPI_COMM_WORLD);
    const double lat = latency_us(rank, buf, bytes, iters, warmup);
    MPI_Barrier(MPI_COMM_WORLD);
    const double bw = bandwidth_mbs(rank, buf, bytes, iters, warmup);
    if (rank == 0) printf("  %-10zu %12.2f %14.2f %8ld\n", bytes, lat, bw, wrong);
  }
  release(device, buf);
  MPI_Finalize();
  return wrong_total == 0 ? 0 : 1;
}
