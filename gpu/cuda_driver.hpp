// The CUDA driver entry points Weft uses, loaded with dlopen("libcuda.so.1") at run time so that
// libweft loads and runs where no driver exists; a plain table, so tests can fill it with fakes.
#pragma once
#include <cstddef>
#include <string>

namespace weft::gpu {

// The driver's types and values, as cuda.h defines them (CUresult, CUdeviceptr, ...).
using CuResult = int;
using CuDevicePtr = unsigned long long;
using CuContext = void*;
using CuStream = void*;
using CuEvent = void*;
inline constexpr CuResult kCuSuccess = 0;
inline constexpr CuResult kCuErrorNotInitialized = 3;  // CUDA_ERROR_NOT_INITIALIZED: no cuInit yet
inline constexpr CuResult kCuErrorInvalidValue = 1;    // CUDA_ERROR_INVALID_VALUE
inline constexpr int kCuPointerAttributeMemoryType = 2;     // CU_POINTER_ATTRIBUTE_MEMORY_TYPE
inline constexpr int kCuPointerAttributeBufferId = 7;       // CU_POINTER_ATTRIBUTE_BUFFER_ID
inline constexpr int kCuPointerAttributeIsManaged = 8;      // CU_POINTER_ATTRIBUTE_IS_MANAGED
inline constexpr int kCuPointerAttributeDeviceOrdinal = 9;  // CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
// CU_POINTER_ATTRIBUTE_RANGE_START_ADDR and _RANGE_SIZE: the allocation holding a pointer.
inline constexpr int kCuPointerAttributeRangeStartAddr = 11;
inline constexpr int kCuPointerAttributeRangeSize = 12;
inline constexpr unsigned kCuMemoryTypeDevice = 2;          // CU_MEMORYTYPE_DEVICE
inline constexpr unsigned kCuStreamDefault =
    0;  // CU_STREAM_DEFAULT: ordered after the legacy stream
inline constexpr unsigned kCuIpcMemLazyEnablePeerAccess = 1;  // CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS
inline constexpr unsigned kCuEventDisableTiming = 2;          // CU_EVENT_DISABLE_TIMING
// CU_STREAM_WAIT_VALUE_GEQ: until (int32_t)(*address - value) >= 0, a cyclic comparison.
inline constexpr unsigned kCuStreamWaitValueGeq = 0;

// CUipcMemHandle: names a device allocation to other processes (passed by value, as cuda.h's).
struct CuIpcMemHandle {
  unsigned char reserved[64];
};

struct CudaDriver {
  CuResult (*init)(unsigned flags) = nullptr;                           // cuInit
  CuResult (*driver_get_version)(int* version) = nullptr;               // cuDriverGetVersion
  CuResult (*device_get_count)(int* count) = nullptr;                   // cuDeviceGetCount
  CuResult (*device_get_name)(char* name, int len, int dev) = nullptr;  // cuDeviceGetName
  CuResult (*pointer_get_attributes)(unsigned n, int* attributes, void** data,
                                     CuDevicePtr p) = nullptr;        // cuPointerGetAttributes
  CuResult (*primary_ctx_retain)(CuContext* ctx, int dev) = nullptr;  // cuDevicePrimaryCtxRetain
  CuResult (*primary_ctx_get_state)(int dev, unsigned* flags,
                                    int* active) = nullptr;  // cuDevicePrimaryCtxGetState
  CuResult (*ctx_get_current)(CuContext* ctx) = nullptr;     // cuCtxGetCurrent
  CuResult (*ctx_set_current)(CuContext ctx) = nullptr;      // cuCtxSetCurrent
  CuResult (*stream_create)(CuStream* stream, unsigned flags) = nullptr;  // cuStreamCreate
  CuResult (*stream_synchronize)(CuStream stream) = nullptr;              // cuStreamSynchronize
  CuResult (*stream_destroy)(CuStream stream) = nullptr;                  // cuStreamDestroy_v2
  CuResult (*event_create)(CuEvent* event, unsigned flags) = nullptr;     // cuEventCreate
  CuResult (*event_record)(CuEvent event, CuStream stream) = nullptr;     // cuEventRecord
  CuResult (*event_synchronize)(CuEvent event) = nullptr;                 // cuEventSynchronize
  CuResult (*event_destroy)(CuEvent event) = nullptr;                     // cuEventDestroy_v2
  CuResult (*launch_host_func)(CuStream stream, void (*fn)(void*),
                               void* data) = nullptr;  // cuLaunchHostFunc
  // cuStreamWaitValue32_v2; null where the driver lacks it (Weft then holds streams with host
  // functions that wait).
  CuResult (*stream_wait_value32)(CuStream stream, CuDevicePtr address, unsigned value,
                                  unsigned flags) = nullptr;
  CuResult (*memcpy_async)(CuDevicePtr dst, CuDevicePtr src, size_t bytes,
                           CuStream stream) = nullptr;                           // cuMemcpyAsync
  CuResult (*mem_alloc)(CuDevicePtr* p, size_t bytes) = nullptr;                 // cuMemAlloc_v2
  CuResult (*mem_free)(CuDevicePtr p) = nullptr;                                 // cuMemFree_v2
  CuResult (*mem_host_alloc)(void** p, size_t bytes, unsigned flags) = nullptr;  // cuMemHostAlloc
  CuResult (*mem_free_host)(void* p) = nullptr;                                  // cuMemFreeHost
  CuResult (*get_error_string)(CuResult error, const char** text) = nullptr;     // cuGetErrorString
  CuResult (*ipc_get_mem_handle)(CuIpcMemHandle* handle,
                                 CuDevicePtr p) = nullptr;  // cuIpcGetMemHandle
  CuResult (*ipc_open_mem_handle)(CuDevicePtr* p, CuIpcMemHandle handle,
                                  unsigned flags) = nullptr;  // cuIpcOpenMemHandle_v2
  CuResult (*ipc_close_mem_handle)(CuDevicePtr p) = nullptr;  // cuIpcCloseMemHandle
};

// Loads libcuda.so.1 (never the toolkit's stub libcuda.so) and finds its entry points, without
// initialising CUDA (cuInit takes long on a GPU machine). False, with the reason, without one.
bool open_cuda_driver(CudaDriver* out, std::string* why);
// Initialises an opened driver: false, with the reason, when it fails or sees no device.
bool start_cuda_driver(const CudaDriver& driver, int* devices, std::string* why);
// Both.
bool load_cuda_driver(CudaDriver* out, int* devices, std::string* why);

// "CUDA_ERROR_INVALID_VALUE (1)"-style text for a driver error.
std::string cuda_error_text(const CudaDriver& driver, CuResult error);

}  // namespace weft::gpu
