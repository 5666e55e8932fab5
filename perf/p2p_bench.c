/* Point-to-point benchmark in plain MPI (builds with any MPI), OSU-style, on 2 ranks:
 * ping-pong latency (half round trip) and streaming bandwidth (a window of nonblocking sends
 * answered by one short ack) for sizes 1 B .. max. Usage: p2p_bench [-m max_bytes] [-i iters]
 * [-t]; -t initialises with MPI_THREAD_MULTIPLE (one thread still does all the calls), to measure
 * what that level costs. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kWindow = 64 };

static int iterations_for(size_t bytes, int base) {
  if (bytes >= (1u << 20)) return base / 20 > 10 ? base / 20 : 10;
  if (bytes >= (64u << 10)) return base / 5;
  return base;
}

static double ping_pong(int rank, char* buf, size_t bytes, int iters) {
  const int warmup = iters / 10 + 2;
  double start = 0;
  for (int i = 0; i < iters + warmup; ++i) {
    if (i == warmup) {
      MPI_Barrier(MPI_COMM_WORLD);
      start = MPI_Wtime();
    }
    if (rank == 0) {
      MPI_Send(buf, (int)bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, (int)bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, (int)bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - start) * 1e6 / (2.0 * iters);
}

static double bandwidth(int rank, char* buf, size_t bytes, int iters) {
  MPI_Request reqs[kWindow];
  char ack = 0;
  const int rounds = iters / 8 > 2 ? iters / 8 : 2, warmup = 2;
  double start = 0;
  for (int r = 0; r < rounds + warmup; ++r) {
    if (r == warmup) {
      MPI_Barrier(MPI_COMM_WORLD);
      start = MPI_Wtime();
    }
    for (int w = 0; w < kWindow; ++w) {
      if (rank == 0)
        MPI_Isend(buf, (int)bytes, MPI_CHAR, 1, 2, MPI_COMM_WORLD, &reqs[w]);
      else
        MPI_Irecv(buf, (int)bytes, MPI_CHAR, 0, 2, MPI_COMM_WORLD, &reqs[w]);
    }
    MPI_Waitall(kWindow, reqs, MPI_STATUSES_IGNORE);
    if (rank == 0)
      MPI_Recv(&ack, 1, MPI_CHAR, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
      MPI_Send(&ack, 1, MPI_CHAR, 0, 3, MPI_COMM_WORLD);
  }
  const double seconds = MPI_Wtime() - start;
  return (double)bytes * kWindow * rounds / seconds / 1e6;
}

int main(int argc, char** argv) {
  int multiple = 0, provided = 0;
  for (int i = 1; i < argc; ++i) multiple |= strcmp(argv[i], "-t") == 0;
  MPI_Init_thread(&argc, &argv, multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  size_t max_bytes = 4u << 20;
  int base_iters = 2000;
  for (int i = 1; i < argc; i += 2) {
    const int has_value = i + 1 < argc;
    if (strcmp(argv[i], "-t") == 0) {
      --i;  /* no value */
    } else if (has_value && strcmp(argv[i], "-m") == 0) {
      max_bytes = (size_t)atol(argv[i + 1]);
    } else if (has_value && strcmp(argv[i], "-i") == 0) {
      base_iters = atoi(argv[i + 1]);
    } else {
      if (rank == 0) fprintf(stderr, "usage: p2p_bench [-m max_bytes] [-i iterations] [-t]\n");
      MPI_Finalize();
      return 2;
    }
  }
  if (max_bytes < 1 || base_iters < 1) {
    if (rank == 0) fprintf(stderr, "p2p_bench: -m and -i must be positive\n");
    MPI_Finalize();
    return 2;
  }
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "p2p_bench needs exactly 2 ranks\n");
    MPI_Finalize();
    return 1;
  }
  char* buf = malloc(max_bytes);
  memset(buf, 1, max_bytes);
  if (rank == 0 && multiple) printf("# MPI_THREAD_MULTIPLE asked, %d provided\n", provided);
  if (rank == 0) printf("# size latency_us bandwidth_MBps\n");
  for (size_t bytes = 1; bytes <= max_bytes; bytes *= 2) {
    const int iters = iterations_for(bytes, base_iters);
    const double lat = ping_pong(rank, buf, bytes, iters);
    const double bw = bandwidth(rank, buf, bytes, iters);
    if (rank == 0) printf("%zu %.3f %.1f\n", bytes, lat, bw);
    fflush(stdout);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
