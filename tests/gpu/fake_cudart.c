/* A stand-in for the CUDA runtime over Weft's fake CUDA driver (tests/gpu/fake_driver): each
 * runtime call the GPU test programs make becomes the driver call the real runtime would make,
 * on the libcuda.so.1 found first on LD_LIBRARY_PATH, which must be the fake (it stops the
 * program otherwise). So the programs' device buffers are the fake's guarded device memory, and
 * Weft, loading the same libcuda.so.1, sees device memory. No kernels, no real GPU. */
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef int CuResult; /* the driver's error codes; those the fake returns equal cudaError_t's */
typedef unsigned long long CuDevicePtr;

static struct {
  CuResult (*init)(unsigned flags);
  CuResult (*device_get_count)(int* count);
  CuResult (*primary_ctx_retain)(void** context, int device);
  CuResult (*ctx_get_current)(void** context);
  CuResult (*ctx_set_current)(void* context);
  CuResult (*ctx_synchronize)(void);
  CuResult (*stream_create)(cudaStream_t* stream, unsigned flags);
  CuResult (*stream_synchronize)(cudaStream_t stream);
  CuResult (*stream_destroy)(cudaStream_t stream);
  CuResult (*launch_host_func)(cudaStream_t stream, cudaHostFn_t fn, void* data);
  CuResult (*mem_alloc)(CuDevicePtr* p, size_t bytes);
  CuResult (*mem_alloc_async)(CuDevicePtr* p, size_t bytes, cudaStream_t stream);
  CuResult (*mem_alloc_managed)(CuDevicePtr* p, size_t bytes, unsigned flags);
  CuResult (*mem_host_alloc)(void** p, size_t bytes, unsigned flags);
  CuResult (*mem_free)(CuDevicePtr p);
  CuResult (*mem_free_async)(CuDevicePtr p, cudaStream_t stream);
  CuResult (*mem_free_host)(void* p);
  CuResult (*memcpy)(CuDevicePtr dst, CuDevicePtr src, size_t bytes);
  CuResult (*memcpy_async)(CuDevicePtr dst, CuDevicePtr src, size_t bytes, cudaStream_t stream);
  CuResult (*memset_d8)(CuDevicePtr p, unsigned char value, size_t bytes);
  CuResult (*memset_d8_async)(CuDevicePtr p, unsigned char value, size_t bytes,
                              cudaStream_t stream);
  CuResult (*get_error_string)(CuResult error, const char** text);
} driver;

static pthread_once_t g_loaded = PTHREAD_ONCE_INIT, g_started = PTHREAD_ONCE_INIT;
static void* g_primary_context;
static CuResult g_start_error;

static void die(const char* what, const char* detail) {
  const char* path = getenv("LD_LIBRARY_PATH");
  fprintf(stderr,
          "fake_cudart: %s (%s); these programs need Weft's fake libcuda.so.1 first on "
          "LD_LIBRARY_PATH (now \"%s\")\n",
          what, detail, path != NULL ? path : "");
  abort();
}

static void* symbol(void* library, const char* name) {
  void* found = dlsym(library, name);
  if (found == NULL) die("the fake driver lacks an entry point", name);
  return found;
}

static void load_driver(void) {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) die("cannot load libcuda.so.1", dlerror());
  if (dlsym(library, "weft_fake_cuda_driver") == NULL)
    die("the libcuda.so.1 found is not Weft's fake driver", "no weft_fake_cuda_driver symbol");
  *(void**)&driver.init = symbol(library, "cuInit");
  *(void**)&driver.device_get_count = symbol(library, "cuDeviceGetCount");
  *(void**)&driver.primary_ctx_retain = symbol(library, "cuDevicePrimaryCtxRetain");
  *(void**)&driver.ctx_get_current = symbol(library, "cuCtxGetCurrent");
  *(void**)&driver.ctx_set_current = symbol(library, "cuCtxSetCurrent");
  *(void**)&driver.ctx_synchronize = symbol(library, "cuCtxSynchronize");
  *(void**)&driver.stream_create = symbol(library, "cuStreamCreate");
  *(void**)&driver.stream_synchronize = symbol(library, "cuStreamSynchronize");
  *(void**)&driver.stream_destroy = symbol(library, "cuStreamDestroy_v2");
  *(void**)&driver.launch_host_func = symbol(library, "cuLaunchHostFunc");
  *(void**)&driver.mem_alloc = symbol(library, "cuMemAlloc_v2");
  *(void**)&driver.mem_alloc_async = symbol(library, "cuMemAllocAsync");
  *(void**)&driver.mem_alloc_managed = symbol(library, "cuMemAllocManaged");
  *(void**)&driver.mem_host_alloc = symbol(library, "cuMemHostAlloc");
  *(void**)&driver.mem_free = symbol(library, "cuMemFree_v2");
  *(void**)&driver.mem_free_async = symbol(library, "cuMemFreeAsync");
  *(void**)&driver.mem_free_host = symbol(library, "cuMemFreeHost");
  *(void**)&driver.memcpy = symbol(library, "cuMemcpy");
  *(void**)&driver.memcpy_async = symbol(library, "cuMemcpyAsync");
  *(void**)&driver.memset_d8 = symbol(library, "cuMemsetD8_v2");
  *(void**)&driver.memset_d8_async = symbol(library, "cuMemsetD8Async");
  *(void**)&driver.get_error_string = symbol(library, "cuGetErrorString");
}

/* What the real runtime does at its first call: cuInit and the primary context of device 0. */
static void start_driver(void) {
  g_start_error = driver.init(0);
  if (g_start_error == 0) g_start_error = driver.primary_ctx_retain(&g_primary_context, 0);
}

/* Before every call that needs a context: started, and the primary context current on this
 * thread (the runtime makes it current on each thread that calls it). */
static cudaError_t enter(void) {
  pthread_once(&g_loaded, load_driver);
  pthread_once(&g_started, start_driver);
  if (g_start_error != 0) return (cudaError_t)g_start_error;
  void* current = NULL;
  CuResult e = driver.ctx_get_current(&current);
  if (e == 0 && current == NULL) e = driver.ctx_set_current(g_primary_context);
  return (cudaError_t)e;
}

static CuDevicePtr address(const void* p) { return (CuDevicePtr)(size_t)p; }

#define ENTER()                                   \
  do {                                            \
    cudaError_t entered_ = enter();               \
    if (entered_ != cudaSuccess) return entered_; \
  } while (0)

cudaError_t cudaGetDeviceCount(int* count) {
  ENTER();
  return (cudaError_t)driver.device_get_count(count);
}

cudaError_t cudaSetDevice(int device) {
  ENTER();
  return device == 0 ? cudaSuccess : cudaErrorInvalidDevice;
}

const char* cudaGetErrorString(cudaError_t error) {
  pthread_once(&g_loaded, load_driver);
  const char* text = NULL;
  driver.get_error_string((CuResult)error, &text);
  return text != NULL ? text : "an error the fake CUDA driver does not name";
}

cudaError_t cudaMalloc(void** p, size_t bytes) {
  ENTER();
  CuDevicePtr d = 0;
  cudaError_t e = (cudaError_t)driver.mem_alloc(&d, bytes);
  *p = (void*)(size_t)d;
  return e;
}

cudaError_t cudaMallocManaged(void** p, size_t bytes, unsigned int flags) {
  ENTER();
  CuDevicePtr d = 0;
  cudaError_t e = (cudaError_t)driver.mem_alloc_managed(&d, bytes, flags);
  *p = (void*)(size_t)d;
  return e;
}

cudaError_t cudaMallocAsync(void** p, size_t bytes, cudaStream_t stream) {
  ENTER();
  CuDevicePtr d = 0;
  cudaError_t e = (cudaError_t)driver.mem_alloc_async(&d, bytes, stream);
  *p = (void*)(size_t)d;
  return e;
}

cudaError_t cudaMallocHost(void** p, size_t bytes) {
  ENTER();
  return (cudaError_t)driver.mem_host_alloc(p, bytes, 0);
}

cudaError_t cudaFree(void* p) {
  ENTER();
  return (cudaError_t)driver.mem_free(address(p));
}

cudaError_t cudaFreeAsync(void* p, cudaStream_t stream) {
  ENTER();
  return (cudaError_t)driver.mem_free_async(address(p), stream);
}

cudaError_t cudaFreeHost(void* p) {
  ENTER();
  return (cudaError_t)driver.mem_free_host(p);
}

/* The driver's unified addressing tells the kinds apart; `kind` is not needed. */
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, enum cudaMemcpyKind kind) {
  (void)kind;
  ENTER();
  return (cudaError_t)driver.memcpy(address(dst), address(src), bytes);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, enum cudaMemcpyKind kind,
                            cudaStream_t stream) {
  (void)kind;
  ENTER();
  return (cudaError_t)driver.memcpy_async(address(dst), address(src), bytes, stream);
}

cudaError_t cudaMemset(void* p, int value, size_t bytes) {
  ENTER();
  return (cudaError_t)driver.memset_d8(address(p), (unsigned char)value, bytes);
}

cudaError_t cudaMemsetAsync(void* p, int value, size_t bytes, cudaStream_t stream) {
  ENTER();
  return (cudaError_t)driver.memset_d8_async(address(p), (unsigned char)value, bytes, stream);
}

cudaError_t cudaDeviceSynchronize(void) {
  ENTER();
  return (cudaError_t)driver.ctx_synchronize();
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  ENTER();
  return (cudaError_t)driver.stream_create(stream, flags);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  ENTER();
  return (cudaError_t)driver.stream_synchronize(stream);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  ENTER();
  return (cudaError_t)driver.stream_destroy(stream);
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* data) {
  ENTER();
  return (cudaError_t)driver.launch_host_func(stream, fn, data);
}
