/* Collective benchmark in plain MPI (builds with any MPI-3 library): OSU-style latency per call,
 * nccl-tests-style algorithm and bus bandwidth.
 *
 * Usage: coll_bench COLL [-n min_bytes] [-m max_bytes] [-i iterations] [-s size,size,...]
 *                        [-f blocking|nonblocking]
 *   COLL is one of allreduce bcast allgather alltoall reduce_scatter reduce gather scatter barrier
 *   scan. Sizes run from -n (default 4) doubling up to -m (default 4M), or exactly the list given
 *   with -s. Sizes take an optional K, M or G suffix (powers of 1024) and must be multiples of 4.
 *   -f nonblocking times MPI_I<coll> followed at once by MPI_Wait instead of the blocking call.
 *
 * Data: MPI_FLOAT everywhere; reductions use MPI_SUM; rooted collectives use root 0;
 * reduce_scatter is MPI_Reduce_scatter_block.
 *
 * What "size" means (OSU's convention, bytes per rank):
 *   allreduce, bcast, reduce, scan: the vector each rank passes in (count * 4 bytes).
 *   allgather, gather: the block each rank contributes; alltoall: the block each rank sends to
 *   each rank; reduce_scatter, scatter: the block each rank receives. The buffers that hold all
 *   ranks' blocks are nranks * size bytes.
 *   barrier: no data, one line with size 0.
 *
 * Timing, per size: warm-up calls, the first of which is checked element by element against the
 * exactly known answer (small integers, so float sums are exact); a wrong answer aborts the job
 * with MPI_Abort and a message on stderr. Then a barrier and `iters` timed calls back to back.
 * avg_us is each rank's elapsed time / iters, then the maximum over ranks. iters starts at -i
 * (default 1000), shrinks with the bytes a call moves, and is capped so that the timed calls of one
 * size take about kTimeBudget seconds judged from the warm-up (at least kMinIters), so that a full
 * run takes a few seconds even oversubscribed.
 *
 * Bandwidth, as nccl-tests defines it (GB = 1e9 bytes): algbw = S / avg, where S = size for the
 * vector collectives and S = nranks * size for the block collectives (the whole gathered,
 * scattered or exchanged buffer, which is what nccl-tests calls the size); busbw = algbw * factor
 * with factor 2(p-1)/p for allreduce, (p-1)/p for allgather, alltoall, reduce_scatter, gather and
 * scatter, and 1 for bcast, reduce and scan.
 *
 * Output: '#' header lines, then one line per size: size avg_us algbw_GBps busbw_GBps */
#include <mpi.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxSizes = 64, kMinIters = 10 };
static const double kTimeBudget = 0.2; /* seconds of timed calls per size, at most (roughly) */
static const size_t kMaxBytes = (size_t)1 << 30;

typedef enum {
  ALLREDUCE, BCAST, ALLGATHER, ALLTOALL, REDUCE_SCATTER, REDUCE, GATHER, SCATTER, BARRIER, SCAN
} Coll;
static const char* const kCollNames[] = {"allreduce", "bcast",  "allgather", "alltoall",
                                         "reduce_scatter", "reduce", "gather", "scatter",
                                         "barrier", "scan"};
enum { kNumColls = sizeof kCollNames / sizeof kCollNames[0] };

typedef struct {
  Coll coll;
  int rank, nranks;
  size_t count; /* floats per vector or per block */
  float *send, *recv;
  int nonblocking; /* -f nonblocking */
} Run;

static int is_block_coll(Coll c) {
  return c == ALLGATHER || c == ALLTOALL || c == REDUCE_SCATTER || c == GATHER || c == SCATTER;
}

static double bus_factor(Coll c, int p) {
  if (c == ALLREDUCE) return 2.0 * (p - 1) / p;
  if (is_block_coll(c)) return (double)(p - 1) / p;
  return 1.0;
}

/* The value rank r puts at position i: a small integer, so that sums over ranks are exact. */
static float value(int r, size_t i) { return (float)(((size_t)r * 131 + i) % 1021); }

/* The nonblocking form of one call: MPI_I<coll>, then MPI_Wait. */
static void call_nonblocking(const Run* x) {
  const int n = (int)x->count;
  MPI_Request r = MPI_REQUEST_NULL;
  switch (x->coll) {
    case ALLREDUCE:
      MPI_Iallreduce(x->send, x->recv, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, &r);
      break;
    case BCAST:
      MPI_Ibcast(x->recv, n, MPI_FLOAT, 0, MPI_COMM_WORLD, &r);
      break;
    case ALLGATHER:
      MPI_Iallgather(x->send, n, MPI_FLOAT, x->recv, n, MPI_FLOAT, MPI_COMM_WORLD, &r);
      break;
    case ALLTOALL:
      MPI_Ialltoall(x->send, n, MPI_FLOAT, x->recv, n, MPI_FLOAT, MPI_COMM_WORLD, &r);
      break;
    case REDUCE_SCATTER:
      MPI_Ireduce_scatter_block(x->send, x->recv, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, &r);
      break;
    case REDUCE:
      MPI_Ireduce(x->send, x->recv, n, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD, &r);
      break;
    case GATHER:
      MPI_Igather(x->send, n, MPI_FLOAT, x->recv, n, MPI_FLOAT, 0, MPI_COMM_WORLD, &r);
      break;
    case SCATTER:
      MPI_Iscatter(x->send, n, MPI_FLOAT, x->recv, n, MPI_FLOAT, 0, MPI_COMM_WORLD, &r);
      break;
    case BARRIER:
      MPI_Ibarrier(MPI_COMM_WORLD, &r);
      break;
    case SCAN:
      MPI_Iscan(x->send, x->recv, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, &r);
      break;
  }
  MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static void call(const Run* x) {
  const int n = (int)x->count;
  if (x->nonblocking) {
    call_nonblocking(x);
    return;
  }
  switch (x->coll) {
    case ALLREDUCE:
      MPI_Allreduce(x->send, x->recv, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      break;
    case BCAST:
      MPI_Bcast(x->recv, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
      break;
    case ALLGATHER:
      MPI_Allgather(x->send, n, MPI_FLOAT, x->recv, n, MPI_FLOAT, MPI_COMM_WORLD);
      break;
    case ALLTOALL:
      MPI_Alltoall(x->send, n, MPI_FLOAT, x->recv, n, MPI_FLOAT, MPI_COMM_WORLD);
      break;
    case REDUCE_SCATTER:
      MPI_Reduce_scatter_block(x->send, x->recv, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      break;
    case REDUCE:
      MPI_Reduce(x->send, x->recv, n, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
      break;
    case GATHER:
      MPI_Gather(x->send, n, MPI_FLOAT, x->recv, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
      break;
    case SCATTER:
      MPI_Scatter(x->send, n, MPI_FLOAT, x->recv, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
      break;
    case BARRIER:
      MPI_Barrier(MPI_COMM_WORLD);
      break;
    case SCAN:
      MPI_Scan(x->send, x->recv, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      break;
  }
}

/* Fill the inputs for this size and poison the outputs, so the first call's result can be checked. */
static void prepare(const Run* x) {
  const size_t n = x->count, p = (size_t)x->nranks;
  const int r = x->rank;
  switch (x->coll) {
    case BARRIER:
      return;
    case BCAST:
      for (size_t i = 0; i < n; ++i) x->recv[i] = r == 0 ? value(0, i) : -1.0f;
      return;
    case ALLREDUCE: case REDUCE: case SCAN: case ALLGATHER: case GATHER:
      for (size_t i = 0; i < n; ++i) x->send[i] = value(r, i);
      break;
    case ALLTOALL: case REDUCE_SCATTER: case SCATTER:
      for (size_t i = 0; i < n * p; ++i) x->send[i] = value(r, i);
      break;
  }
  const size_t out = (x->coll == ALLGATHER || x->coll == GATHER || x->coll == ALLTOALL) ? n * p : n;
  for (size_t i = 0; i < out; ++i) x->recv[i] = -1.0f;
}

/* The expected recv[i] after one call on this rank; returns 0 where this rank's recv is not
 * defined by the collective (non-roots of reduce and gather). */
static int expected(const Run* x, size_t i, float* want) {
  const size_t n = x->count;
  const int r = x->rank, p = x->nranks;
  double sum = 0;
  switch (x->coll) {
    case BARRIER:
      return 0;
    case BCAST:
      *want = value(0, i);
      return 1;
    case ALLREDUCE: case REDUCE: case SCAN: {
      if (x->coll == REDUCE && r != 0) return 0;
      const int last = x->coll == SCAN ? r : p - 1;
      for (int s = 0; s <= last; ++s) sum += value(s, i);
      *want = (float)sum;
      return 1;
    }
    case ALLGATHER: case GATHER:
      if (x->coll == GATHER && r != 0) return 0;
      *want = value((int)(i / n), i % n);
      return 1;
    case ALLTOALL: /* block s came from rank s, which sent us its block number r */
      *want = value((int)(i / n), (size_t)r * n + i % n);
      return 1;
    case REDUCE_SCATTER:
      for (int s = 0; s < p; ++s) sum += value(s, (size_t)r * n + i);
      *want = (float)sum;
      return 1;
    case SCATTER:
      *want = value(0, (size_t)r * n + i);
      return 1;
  }
  return 0;
}

static void check(const Run* x, size_t bytes) {
  const size_t out = (x->coll == ALLGATHER || x->coll == GATHER || x->coll == ALLTOALL)
                         ? x->count * (size_t)x->nranks
                         : x->count;
  for (size_t i = 0; i < out; ++i) {
    float want;
    if (!expected(x, i, &want)) return;
    if (x->recv[i] != want) {
      fprintf(stderr,
              "coll_bench: WRONG RESULT: %s on %d ranks, size %zu B (%zu floats): rank %d, "
              "recv[%zu] = %g, expected %g\n",
              kCollNames[x->coll], x->nranks, bytes, x->count, x->rank, i, (double)x->recv[i],
              (double)want);
      fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }
}

/* Most iterations for a call that moves `work` bytes through the largest buffer of a rank. */
static int iterations_for(size_t work, int base) {
  const size_t small = (size_t)64 << 10;
  if (work <= small) return base;
  const double scaled = (double)base * (double)small / (double)work;
  return scaled > kMinIters ? (int)scaled : (base < kMinIters ? base : kMinIters);
}

/* Average microseconds per call on this rank for the current size. */
static double time_size(const Run* x, size_t bytes, int max_iters) {
  const int warmup = max_iters / 10 + 2 < 50 ? max_iters / 10 + 2 : 50;
  prepare(x);
  call(x);
  check(x, bytes);
  double t0 = MPI_Wtime();
  for (int i = 1; i < warmup; ++i) call(x);
  double per_call = (MPI_Wtime() - t0) / (warmup - 1), slowest;
  MPI_Allreduce(&per_call, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int iters = max_iters;
  if (slowest * iters > kTimeBudget) {
    iters = (int)(kTimeBudget / slowest);
    if (iters < kMinIters) iters = max_iters < kMinIters ? max_iters : kMinIters;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (int i = 0; i < iters; ++i) call(x);
  return (MPI_Wtime() - t0) * 1e6 / iters;
}

/* Parses a byte count with an optional K/M/G suffix; 0 on anything else. */
static int parse_bytes(const char* s, size_t* out) {
  if (*s < '0' || *s > '9') return 0;
  char* end;
  unsigned long long v = strtoull(s, &end, 10);
  unsigned shift = 0;
  if (*end == 'K' || *end == 'k') shift = 10, ++end;
  else if (*end == 'M' || *end == 'm') shift = 20, ++end;
  else if (*end == 'G' || *end == 'g') shift = 30, ++end;
  if (*end != '\0' || v > (unsigned long long)kMaxBytes >> shift) return 0;
  *out = (size_t)(v << shift);
  return 1;
}

static int parse_int(const char* s, int* out) {
  if (*s < '0' || *s > '9') return 0;
  char* end;
  long v = strtol(s, &end, 10);
  if (*end != '\0' || v < 1 || v > INT_MAX) return 0;
  *out = (int)v;
  return 1;
}

static int parse_list(const char* s, size_t* sizes, int* n) {
  char buf[1024];
  if (strlen(s) >= sizeof buf) return 0;
  strcpy(buf, s);
  *n = 0;
  for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    if (*n == kMaxSizes || !parse_bytes(tok, &sizes[*n])) return 0;
    ++*n;
  }
  return *n > 0;
}

static int usage(int rank, const char* why) {
  if (rank == 0) {
    if (why) fprintf(stderr, "coll_bench: %s\n", why);
    fprintf(stderr,
            "usage: coll_bench allreduce|bcast|allgather|alltoall|reduce_scatter|reduce|gather|"
            "scatter|barrier|scan\n"
            "                  [-n min_bytes] [-m max_bytes] [-i iterations] [-s size,size,...]\n"
            "                  [-f blocking|nonblocking]\n"
            "  sizes: multiples of 4 bytes up to 1G, optional K/M/G suffix; -s replaces -n/-m\n");
  }
  MPI_Finalize();
  return 2;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, nranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);

  if (argc < 2) return usage(rank, "no collective given");
  int coll = -1;
  for (int c = 0; c < kNumColls; ++c)
    if (strcmp(argv[1], kCollNames[c]) == 0) coll = c;
  if (coll < 0) return usage(rank, "unknown collective");

  size_t min_bytes = 4, max_bytes = (size_t)4 << 20, sizes[kMaxSizes];
  int base_iters = 1000, nsizes = 0, have_range = 0, nonblocking = 0;
  for (int i = 2; i < argc; i += 2) {
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    int ok = v != NULL;
    if (ok && strcmp(argv[i], "-n") == 0) ok = parse_bytes(v, &min_bytes), have_range = 1;
    else if (ok && strcmp(argv[i], "-m") == 0) ok = parse_bytes(v, &max_bytes), have_range = 1;
    else if (ok && strcmp(argv[i], "-i") == 0) ok = parse_int(v, &base_iters);
    else if (ok && strcmp(argv[i], "-s") == 0) ok = parse_list(v, sizes, &nsizes);
    else if (ok && strcmp(argv[i], "-f") == 0)
      nonblocking = strcmp(v, "nonblocking") == 0, ok = nonblocking || strcmp(v, "blocking") == 0;
    else ok = 0;
    if (!ok) {
      char why[128];
      snprintf(why, sizeof why, "bad option or value: %.40s %.40s", argv[i], v ? v : "(missing)");
      return usage(rank, why);
    }
  }
  if (nsizes > 0 && have_range) return usage(rank, "-s cannot be combined with -n/-m");
  if (nsizes == 0) {
    if (min_bytes < 4 || min_bytes > max_bytes) return usage(rank, "need 4 <= min_bytes <= max_bytes");
    for (size_t b = min_bytes; b <= max_bytes && nsizes < kMaxSizes; b *= 2) sizes[nsizes++] = b;
  }
  size_t largest = 0;
  for (int k = 0; k < nsizes; ++k) {
    if (sizes[k] < 4 || sizes[k] % sizeof(float) != 0)
      return usage(rank, "sizes must be positive multiples of 4 (whole floats)");
    if (sizes[k] > largest) largest = sizes[k];
  }
  if (coll == BARRIER) nsizes = 1, sizes[0] = 0, largest = 0;

  /* Buffers big enough for the largest size: the block collectives hold nranks blocks. */
  const size_t span = is_block_coll((Coll)coll) ? (size_t)nranks : 1;
  const size_t floats = largest / sizeof(float) * span;
  float* send = malloc((floats > 0 ? floats : 1) * sizeof(float));
  float* recv = malloc((floats > 0 ? floats : 1) * sizeof(float));
  if (!send || !recv) {
    fprintf(stderr, "coll_bench: rank %d: cannot allocate 2 x %zu bytes\n", rank,
            floats * sizeof(float));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }

  if (rank == 0) {
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    lib[len < MPI_MAX_LIBRARY_VERSION_STRING ? len : MPI_MAX_LIBRARY_VERSION_STRING - 1] = '\0';
    char* nl = strchr(lib, '\n');
    if (nl) *nl = '\0';
    printf("# coll_bench %s%s on %d ranks (MPI_FLOAT, MPI_SUM, root 0); library: %s\n",
           kCollNames[coll], nonblocking ? " (nonblocking: MPI_I* + MPI_Wait)" : "", nranks, lib);
    if (coll == BARRIER)
      printf("# size: none (barrier moves no data; bandwidths are 0)\n");
    else if (is_block_coll((Coll)coll))
      printf("# size: bytes of the per-rank block; algbw = nranks*size/avg (nccl-tests' size)\n");
    else
      printf("# size: bytes of the per-rank vector; algbw = size/avg\n");
    printf("# avg_us: mean per call over the timed iterations, max over ranks; "
           "busbw = algbw * %.4f (nccl-tests factor); GB = 1e9 B\n",
           bus_factor((Coll)coll, nranks));
    printf("# size avg_us algbw_GBps busbw_GBps\n");
    fflush(stdout);
  }

  for (int k = 0; k < nsizes; ++k) {
    const size_t bytes = sizes[k];
    const Run x = {(Coll)coll, rank, nranks, bytes / sizeof(float), send, recv, nonblocking};
    const double us = time_size(&x, bytes, iterations_for(bytes * span, base_iters));
    double worst;
    MPI_Reduce(&us, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      const double algbw = (double)(bytes * span) / (worst * 1e-6) / 1e9;
      printf("%zu %.3f %.4f %.4f\n", bytes, worst, algbw,
             algbw * bus_factor((Coll)coll, nranks));
      fflush(stdout);
    }
  }
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
