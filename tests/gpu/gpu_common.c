/* The GPU test programs' shared helpers (gpu_common.h): memory of each kind through the CUDA
 * runtime, test values, the host reference of reductions, failure counting. */
#include "gpu_common.h"

#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char* const kMemKindNames[] = {"host", "device", "managed", "pinned", "pool"};
int g_rank, g_size;
static const char* g_program;
static int g_failures;
enum { kMaxReported = 20 }; /* failures printed per rank; the rest are only counted */

static void cuda_call(cudaError_t err, const char* call) {
  if (err == cudaSuccess) return;
  fprintf(stderr, "%s rank %d: %s failed: %s\n", g_program, g_rank, call, cudaGetErrorString(err));
  MPI_Abort(MPI_COMM_WORLD, 2);
}

void gpu_test_init(int* argc, char*** argv, const char* program) {
  g_program = program;
  cuda_call(cudaSetDevice(0), "cudaSetDevice(0)");
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
}

int gpu_test_finish(void) {
  int total = 0;
  MPI_Allreduce(&g_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (g_rank == 0) {
    if (total == 0)
      printf("%s: ok (%d ranks)\n", g_program, g_size);
    else
      printf("%s: %d wrong results over %d ranks\n", g_program, total, g_size);
  }
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}

void fail(const char* format, ...) {
  if (++g_failures > kMaxReported) return;
  va_list args;
  va_start(args, format);
  fprintf(stderr, "%s rank %d: ", g_program, g_rank);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
}

void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char message[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, message, &length);
  fail("%s returned %d: %s", call, code, message);
}

void* mem_alloc(MemKind kind, size_t bytes) {
  void* p = NULL;
  switch (kind) {
    case MEM_HOST: p = malloc(bytes ? bytes : 1); break;
    case MEM_DEVICE: cuda_call(cudaMalloc(&p, bytes ? bytes : 1), "cudaMalloc"); break;
    case MEM_MANAGED:
      cuda_call(cudaMallocManaged(&p, bytes ? bytes : 1, cudaMemAttachGlobal), "cudaMallocManaged");
      break;
    case MEM_PINNED: cuda_call(cudaMallocHost(&p, bytes ? bytes : 1), "cudaMallocHost"); break;
    case MEM_POOL:
      cuda_call(cudaMallocAsync(&p, bytes ? bytes : 1, 0), "cudaMallocAsync");
      cuda_call(cudaStreamSynchronize(0), "cudaStreamSynchronize");
      break;
  }
  if (p == NULL) {
    fprintf(stderr, "%s rank %d: no %zu bytes of %s memory\n", g_program, g_rank, bytes,
            kMemKindNames[kind]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return p;
}

void mem_free(MemKind kind, void* p) {
  switch (kind) {
    case MEM_HOST: free(p); break;
    case MEM_DEVICE:
    case MEM_MANAGED: cuda_call(cudaFree(p), "cudaFree"); break;
    case MEM_PINNED: cuda_call(cudaFreeHost(p), "cudaFreeHost"); break;
    case MEM_POOL:
      cuda_call(cudaFreeAsync(p, 0), "cudaFreeAsync");
      cuda_call(cudaStreamSynchronize(0), "cudaStreamSynchronize");
      break;
  }
}

void mem_copy(void* dst, const void* src, size_t bytes) {
  if (bytes == 0) return;
  cuda_call(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault), "cudaMemcpy");
}

void mem_set(MemKind kind, void* p, int byte, size_t bytes) {
  if (kind == MEM_HOST || kind == MEM_PINNED) {
    memset(p, byte, bytes);
    return;
  }
  cuda_call(cudaMemset(p, byte, bytes), "cudaMemset");
  cuda_call(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

unsigned char pattern_byte(int rank, size_t i, int salt) {
  return (unsigned char)(rank * 37 + (i % 251) * 7 + i / 251 + salt * 11 + 1);
}

void* pattern_in(MemKind kind, size_t bytes, int rank, int salt) {
  unsigned char* host = malloc(bytes ? bytes : 1);
  for (size_t i = 0; i < bytes; ++i) host[i] = pattern_byte(rank, i, salt);
  void* buf = mem_alloc(kind, bytes);
  mem_copy(buf, host, bytes);
  free(host);
  return buf;
}

void check_pattern(const char* what, const unsigned char* got, size_t bytes, int rank,
                   size_t first, int salt) {
  for (size_t i = 0; i < bytes; ++i) {
    unsigned char want = pattern_byte(rank, first + i, salt);
    if (got[i] != want) {
      fail("%s: byte %zu of %zu is %u, expected %u (rank %d's data)", what, i, bytes, got[i], want,
           rank);
      return;
    }
  }
}

double value_of(int rank, size_t i, int salt) {
  return (double)((rank * 5 + (i % 1009) * 3 + salt * 7) % 23) - 11.0;  /* -11..11 */
}

size_t type_bytes(MPI_Datatype type) {
  if (type == MPI_FLOAT) return sizeof(float);
  if (type == MPI_DOUBLE) return sizeof(double);
  return sizeof(int);
}

const char* type_name(MPI_Datatype type) {
  if (type == MPI_FLOAT) return "float";
  if (type == MPI_DOUBLE) return "double";
  return "int";
}

void store_value(MPI_Datatype type, void* host, size_t i, double v) {
  if (type == MPI_FLOAT) ((float*)host)[i] = (float)v;
  else if (type == MPI_DOUBLE) ((double*)host)[i] = v;
  else ((int*)host)[i] = (int)v;
}

double load_value(MPI_Datatype type, const void* host, size_t i) {
  if (type == MPI_FLOAT) return ((const float*)host)[i];
  if (type == MPI_DOUBLE) return ((const double*)host)[i];
  return ((const int*)host)[i];
}

void fill_values(MPI_Datatype type, void* host, size_t n, int rank, size_t first, int salt) {
  for (size_t i = 0; i < n; ++i) store_value(type, host, i, value_of(rank, first + i, salt));
}

void* values_in(MemKind kind, MPI_Datatype type, size_t n, int rank, size_t first, int salt) {
  const size_t bytes = n * type_bytes(type);
  void* host = malloc(bytes ? bytes : 1);
  fill_values(type, host, n, rank, first, salt);
  void* buf = mem_alloc(kind, bytes);
  mem_copy(buf, host, bytes);
  free(host);
  return buf;
}

void reduce_on_host(MPI_Op op, double* expect, size_t n, int first_rank, int last_rank,
                    size_t first, int salt) {
  for (size_t i = 0; i < n; ++i) {
    double acc = value_of(first_rank, first + i, salt);
    for (int r = first_rank + 1; r <= last_rank; ++r) {
      double v = value_of(r, first + i, salt);
      acc = op == MPI_MAX ? (v > acc ? v : acc) : acc + v;
    }
    expect[i] = acc;
  }
}

void check_values(const char* what, MPI_Datatype type, const void* got, const double* expect,
                  size_t n) {
  int reported = 0;
  for (size_t i = 0; i < n && reported < 3; ++i) {
    double v = load_value(type, got, i);
    if (v != expect[i]) {
      fail("%s (%s): element %zu of %zu is %.17g, expected %.17g", what, type_name(type), i, n, v,
           expect[i]);
      ++reported;
    }
  }
}
