/* The bytes the point-to-point GPU benchmarks send and check (gpu_p2p_bench.c,
 * gpu_stream_bench.c): byte i of a message of `bytes` bytes is (i * 7 + bytes) mod 256, so a
 * message of another size or a shifted one does not pass. */
#ifndef WEFT_PERF_GPU_PATTERN_H
#define WEFT_PERF_GPU_PATTERN_H
#include <cuda_runtime.h>
#include <stdlib.h>

static inline unsigned char pattern_byte(size_t i, size_t bytes) {
  return (unsigned char)(i * 7 + bytes);
}

/* Puts the pattern (or, with `zeros`, zeros) into buf, device or host memory. */
static inline cudaError_t pattern_put(void* buf, size_t bytes, int zeros) {
  unsigned char* host = malloc(bytes);
  for (size_t i = 0; i < bytes; ++i) host[i] = zeros ? 0 : pattern_byte(i, bytes);
  const cudaError_t e = cudaMemcpy(buf, host, bytes, cudaMemcpyDefault);
  free(host);
  return e;
}

/* How many bytes of buf (device or host memory) differ from the pattern; -1 when it could not be
 * read. */
static inline long pattern_wrong(const void* buf, size_t bytes) {
  unsigned char* host = malloc(bytes);
  long wrong = -1;
  if (cudaMemcpy(host, buf, bytes, cudaMemcpyDefault) == cudaSuccess) {
    wrong = 0;
    for (size_t i = 0; i < bytes; ++i) wrong += host[i] != pattern_byte(i, bytes);
  }
  free(host);
  return wrong;
}

#endif /* WEFT_PERF_GPU_PATTERN_H */
