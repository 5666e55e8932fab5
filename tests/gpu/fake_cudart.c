/* A stand-in for the CUDA runtime with no GPU: every kind of memory is host memory (malloc) and
 * copies are memcpy. Linked into the selfcheck builds of the GPU test programs, which run on
 * any machine, so that their own bookkeeping (layouts, expected values, checks) is tested where
 * the real programs skip. It says nothing about Weft's GPU paths. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidDevice; }

const char* cudaGetErrorString(cudaError_t error) {
  return error == cudaSuccess ? "no error" : "fake CUDA runtime error";
}

static cudaError_t allocate(void** p, size_t bytes) {
  *p = malloc(bytes);
  return *p != NULL ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t cudaMalloc(void** p, size_t bytes) { return allocate(p, bytes); }
cudaError_t cudaMallocHost(void** p, size_t bytes) { return allocate(p, bytes); }
cudaError_t cudaMallocManaged(void** p, size_t bytes, unsigned int flags) {
  (void)flags;
  return allocate(p, bytes);
}

cudaError_t cudaFree(void* p) {
  free(p);
  return cudaSuccess;
}

cudaError_t cudaFreeHost(void* p) { return cudaFree(p); }
cudaError_t cudaMallocAsync(void** p, size_t bytes, cudaStream_t stream) {
  (void)stream;
  return allocate(p, bytes);
}
cudaError_t cudaFreeAsync(void* p, cudaStream_t stream) {
  (void)stream;
  return cudaFree(p);
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  (void)stream;
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, enum cudaMemcpyKind kind) {
  (void)kind;
  memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemset(void* p, int value, size_t bytes) {
  memset(p, value, bytes);
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
