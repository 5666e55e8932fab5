// Loading the CUDA driver with dlopen: the symbols of the CUDA 12/13 driver API Weft calls.
#include "gpu/cuda_driver.hpp"

#include <dlfcn.h>

#include "gpu/dl_symbols.hpp"

namespace weft::gpu {

bool open_cuda_driver(CudaDriver* out, std::string* why) {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* error = dlerror();
    *why = std::string("no CUDA driver (") + (error != nullptr ? error : "libcuda.so.1") + ")";
    return false;
  }
  CudaDriver d;
  std::string missing;
  resolve_symbol(library, "cuInit", &d.init, &missing);
  resolve_symbol(library, "cuDriverGetVersion", &d.driver_get_version, &missing);
  resolve_symbol(library, "cuDeviceGetCount", &d.device_get_count, &missing);
  resolve_symbol(library, "cuDeviceGetName", &d.device_get_name, &missing);
  resolve_symbol(library, "cuPointerGetAttributes", &d.pointer_get_attributes, &missing);
  resolve_symbol(library, "cuDevicePrimaryCtxRetain", &d.primary_ctx_retain, &missing);
  resolve_symbol(library, "cuDevicePrimaryCtxGetState", &d.primary_ctx_get_state, &missing);
  resolve_symbol(library, "cuCtxGetCurrent", &d.ctx_get_current, &missing);
  resolve_symbol(library, "cuCtxSetCurrent", &d.ctx_set_current, &missing);
  resolve_symbol(library, "cuStreamCreate", &d.stream_create, &missing);
  resolve_symbol(library, "cuStreamSynchronize", &d.stream_synchronize, &missing);
  resolve_symbol(library, "cuStreamDestroy_v2", &d.stream_destroy, &missing);
  resolve_symbol(library, "cuEventCreate", &d.event_create, &missing);
  resolve_symbol(library, "cuEventRecord", &d.event_record, &missing);
  resolve_symbol(library, "cuEventSynchronize", &d.event_synchronize, &missing);
  resolve_symbol(library, "cuEventDestroy_v2", &d.event_destroy, &missing);
  resolve_symbol(library, "cuLaunchHostFunc", &d.launch_host_func, &missing);
  std::string optional;  // its absence leaves stream waits to host functions
  resolve_symbol(library, "cuStreamWaitValue32_v2", &d.stream_wait_value32, &optional);
  resolve_symbol(library, "cuMemcpyAsync", &d.memcpy_async, &missing);
  resolve_symbol(library, "cuMemAlloc_v2", &d.mem_alloc, &missing);
  resolve_symbol(library, "cuMemFree_v2", &d.mem_free, &missing);
  resolve_symbol(library, "cuMemHostAlloc", &d.mem_host_alloc, &missing);
  resolve_symbol(library, "cuMemFreeHost", &d.mem_free_host, &missing);
  resolve_symbol(library, "cuGetErrorString", &d.get_error_string, &missing);
  resolve_symbol(library, "cuIpcGetMemHandle", &d.ipc_get_mem_handle, &missing);
  resolve_symbol(library, "cuIpcOpenMemHandle_v2", &d.ipc_open_mem_handle, &missing);
  resolve_symbol(library, "cuIpcCloseMemHandle", &d.ipc_close_mem_handle, &missing);
  if (!missing.empty()) {
    *why = "the CUDA driver lacks " + missing;
    dlclose(library);
    return false;
  }
  *out = d;  // the library stays loaded for the life of the process
  return true;
}

bool start_cuda_driver(const CudaDriver& d, int* devices, std::string* why) {
  *devices = 0;
  const CuResult init = d.init(0);
  if (init != kCuSuccess) {
    *why = "cuInit failed: " + cuda_error_text(d, init);
    return false;
  }
  int count = 0;
  if (d.device_get_count(&count) != kCuSuccess || count <= 0) {
    *why = "the CUDA driver sees no device";
    return false;
  }
  *devices = count;
  return true;
}

bool load_cuda_driver(CudaDriver* out, int* devices, std::string* why) {
  *devices = 0;
  return open_cuda_driver(out, why) && start_cuda_driver(*out, devices, why);
}

std::string cuda_error_text(const CudaDriver& driver, CuResult error) {
  const char* text = nullptr;
  if (driver.get_error_string != nullptr) driver.get_error_string(error, &text);
  return std::string(text != nullptr ? text : "CUDA error") + " (" + std::to_string(error) + ")";
}

}  // namespace weft::gpu
