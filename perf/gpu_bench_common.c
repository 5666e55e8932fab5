/* The shared part of the GPU collective benchmarks (gpu_bench_common.h). */
#include "gpu_bench_common.h"

#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* const kCollNames[] = {"allreduce", "allgather", "reduce_scatter"};
static const double kSecondsPerSize = 1.0; /* timed calls of one size, roughly at most */

const char* bench_coll_name(BenchColl c) { return kCollNames[c]; }

void bench_cuda_call(int cuda_error, const char* call) {
  if (cuda_error == cudaSuccess) return;
  fprintf(stderr, "%s failed: %s\n", call, cudaGetErrorString((cudaError_t)cuda_error));
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) MPI_Abort(MPI_COMM_WORLD, 2);
  exit(2);
}

static int parse_bytes(const char* text, size_t* bytes) {
  char* end = NULL;
  unsigned long long v = strtoull(text, &end, 10);
  if (end == text) return 0;
  switch (*end) {
    case 'K': v <<= 10; ++end; break;
    case 'M': v <<= 20; ++end; break;
    case 'G': v <<= 30; ++end; break;
    default: break;
  }
  if (*end != '\0' || v == 0) return 0;
  *bytes = (size_t)v;
  return 1;
}

static int parse_colls(char* list, int* colls) {
  memset(colls, 0, BENCH_NUM_COLLS * sizeof(int));
  for (char* name = strtok(list, ","); name != NULL; name = strtok(NULL, ",")) {
    int found = 0;
    for (int c = 0; c < BENCH_NUM_COLLS; ++c)
      if (strcmp(name, kCollNames[c]) == 0) colls[c] = found = 1;
    if (!found) return 0;
  }
  return 1;
}

int bench_parse(int argc, char** argv, const char* program, int host_allowed, BenchOptions* o) {
  *o = (BenchOptions){.min_bytes = 8, .max_bytes = (size_t)256 << 20, .factor = 2, .iters = 20,
                      .warmup = 5, .host = 0, .colls = {1, 1, 1}};
  int ok = 1;
  for (int i = 1; i < argc && ok; ++i) {
    const char* flag = argv[i];
    if (strcmp(flag, "-H") == 0 && host_allowed) {
      o->host = 1;
      continue;
    }
    if (i + 1 >= argc || flag[0] != '-' || flag[1] == '\0' || flag[2] != '\0') {
      ok = 0;
      break;
    }
    char* value = argv[++i];
    switch (flag[1]) {
      case 'b': ok = parse_bytes(value, &o->min_bytes); break;
      case 'e': ok = parse_bytes(value, &o->max_bytes); break;
      case 'f': ok = (o->factor = atoi(value)) >= 2; break;
      case 'n': ok = (o->iters = atoi(value)) >= 1; break;
      case 'w': ok = (o->warmup = atoi(value)) >= 1; break;
      case 'c': ok = parse_colls(value, o->colls); break;
      default: ok = 0;
    }
  }
  if (ok && o->min_bytes <= o->max_bytes) return 1;
  fprintf(stderr,
          "usage: %s [-b min_bytes] [-e max_bytes] [-f factor] [-n iters] [-w warmup]\n"
          "       [-c allreduce,allgather,reduce_scatter]%s\n"
          "  sizes take K, M or G (powers of 1024); defaults -b 8 -e 256M -f 2 -n 20 -w 5\n%s",
          program, host_allowed ? " [-H]" : "",
          host_allowed ? "  -H: host buffers (malloc), not device buffers (cudaMalloc)\n" : "");
  return 0;
}

static size_t count_of(BenchColl c, size_t bytes, int nranks) {
  size_t count = bytes / sizeof(float);
  if (c != BENCH_ALLREDUCE) count -= count % (size_t)nranks;
  return count;
}

size_t bench_send_count(BenchColl c, size_t count, int nranks) {
  return c == BENCH_ALLGATHER ? count / (size_t)nranks : count;
}

size_t bench_recv_count(BenchColl c, size_t count, int nranks) {
  return c == BENCH_REDUCE_SCATTER ? count / (size_t)nranks : count;
}

double bench_bus_factor(BenchColl c, int nranks) {
  double n = nranks;
  return c == BENCH_ALLREDUCE ? 2.0 * (n - 1) / n : (n - 1) / n;
}

/* Element i of the whole vector as rank r puts it in: small integers, so sums are exact. */
static float input_at(int rank, size_t i) { return (float)((rank * 3 + i % 97) % 11); }

static void fill_send(BenchColl c, float* host, size_t count, int nranks, int rank) {
  size_t n = bench_send_count(c, count, nranks);
  size_t first = c == BENCH_ALLGATHER ? (size_t)rank * n : 0;  /* rank's block of the result */
  for (size_t i = 0; i < n; ++i) host[i] = input_at(rank, first + i);
}

static long count_wrong(BenchColl c, const float* host, size_t count, int nranks, int rank) {
  size_t n = bench_recv_count(c, count, nranks), block = count / (size_t)nranks;
  size_t first = c == BENCH_REDUCE_SCATTER ? (size_t)rank * n : 0;
  long wrong = 0;
  for (size_t i = 0; i < n; ++i) {
    float want = 0;
    if (c == BENCH_ALLGATHER)
      want = input_at((int)(i / block), i);
    else
      for (int r = 0; r < nranks; ++r) want += input_at(r, first + i);
    wrong += host[i] != want;
  }
  return wrong;
}

static void* allocate(int host, size_t bytes) {
  void* p = NULL;
  if (host)
    p = malloc(bytes);
  else
    bench_cuda_call(cudaMalloc(&p, bytes), "cudaMalloc");
  if (p == NULL) {
    fprintf(stderr, "no %zu bytes of memory\n", bytes);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return p;
}

static void release(int host, void* p) {
  if (host)
    free(p);
  else
    bench_cuda_call(cudaFree(p), "cudaFree");
}

static void copy(int host, void* dst, const void* src, size_t bytes) {
  if (host)
    memcpy(dst, src, bytes);
  else
    bench_cuda_call(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault), "cudaMemcpy");
}

static void run_calls(const BenchCalls* calls, int times, BenchColl c, const void* send,
                      void* recv, size_t count, int nranks) {
  for (int i = 0; i < times; ++i) calls->call(calls->context, c, send, recv, count, nranks);
  if (calls->sync != NULL) calls->sync(calls->context);
}

/* One size: the average time per call (maximum over ranks); *wrong as bench_run says. */
static double measure(const BenchOptions* o, const BenchCalls* calls, BenchColl c, size_t count,
                      int rank, int nranks, long* wrong) {
  size_t send_n = bench_send_count(c, count, nranks), recv_n = bench_recv_count(c, count, nranks);
  float* host = malloc((send_n > recv_n ? send_n : recv_n) * sizeof(float));
  void* send = allocate(o->host, send_n * sizeof(float));
  void* recv = allocate(o->host, recv_n * sizeof(float));
  fill_send(c, host, count, nranks, rank);
  copy(o->host, send, host, send_n * sizeof(float));

  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  run_calls(calls, 1, c, send, recv, count, nranks);
  double warm_us = (MPI_Wtime() - start) * 1e6;
  copy(o->host, host, recv, recv_n * sizeof(float));
  long mine = count_wrong(c, host, count, nranks, rank);
  MPI_Allreduce(&mine, wrong, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  run_calls(calls, o->warmup - 1, c, send, recv, count, nranks);
  MPI_Allreduce(MPI_IN_PLACE, &warm_us, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int fit = warm_us > 0 ? (int)(kSecondsPerSize * 1e6 / warm_us) : o->iters;
  int iters = fit < 1 ? 1 : fit < o->iters ? fit : o->iters;

  MPI_Barrier(MPI_COMM_WORLD);
  start = MPI_Wtime();
  run_calls(calls, iters, c, send, recv, count, nranks);
  double avg_us = (MPI_Wtime() - start) * 1e6 / iters;
  MPI_Allreduce(MPI_IN_PLACE, &avg_us, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  release(o->host, send);
  release(o->host, recv);
  free(host);
  return avg_us;
}

void bench_run(const BenchOptions* o, const BenchCalls* calls, const char* what) {
  int rank, nranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (rank == 0) {
    printf("# %s\n# %12s %12s %6s %6s %15s %10s %11s %11s %7s\n", what, "size(B)", "count",
           "type", "redop", "collective", "time(us)", "algbw(GB/s)", "busbw(GB/s)", "#wrong");
    fflush(stdout);
  }
  for (int c = 0; c < BENCH_NUM_COLLS; ++c) {
    if (!o->colls[c]) continue;
    for (size_t bytes = o->min_bytes; bytes <= o->max_bytes; bytes *= (size_t)o->factor) {
      size_t count = count_of((BenchColl)c, bytes, nranks);
      if (count == 0) continue;
      long wrong = 0;
      double avg_us = measure(o, calls, (BenchColl)c, count, rank, nranks, &wrong);
      double algbw = (double)count * sizeof(float) / avg_us / 1e3;
      if (rank == 0) {
        printf("  %12zu %12zu %6s %6s %15s %10.2f %11.3f %11.3f %7ld\n", count * sizeof(float),
               count, "float", c == BENCH_ALLGATHER ? "none" : "sum", kCollNames[c], avg_us,
               algbw, algbw * bench_bus_factor((BenchColl)c, nranks), wrong);
        fflush(stdout);
      }
    }
  }
}
