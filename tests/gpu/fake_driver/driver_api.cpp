// The fake driver's initialisation, its one device, the primary context, streams and error
// names: the entry points that touch no memory.
#include <atomic>
#include <cstring>
#include <mutex>
#include <set>

#include "fake_driver.hpp"

namespace fake_cuda {
namespace {

constexpr char kDeviceName[] = "Weft fake GPU (host memory)";

std::atomic<bool> g_initialized{false};
std::atomic<int> g_primary_retains{0};
std::atomic<bool> g_allocated{false};
int g_primary_context_object;  // its address is the context handle
thread_local CuContext t_current = nullptr;

// The streams or the events the driver made and did not destroy yet: each a distinct address.
class Handles {
 public:
  void* make() {
    void* made = new char;
    std::lock_guard<std::mutex> lock(mutex_);
    live_.insert(made);
    return made;
  }
  bool knows(void* handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_.count(handle) != 0;
  }
  bool destroy(void* handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (live_.erase(handle) == 0) return false;
    delete static_cast<char*>(handle);
    return true;
  }

 private:
  std::mutex mutex_;
  std::set<void*> live_;
};
Handles g_streams, g_events;

// The special stream handles of cuda.h: CU_STREAM_LEGACY and CU_STREAM_PER_THREAD.
const CuStream kStreamLegacy = reinterpret_cast<CuStream>(uintptr_t{1});
const CuStream kStreamPerThread = reinterpret_cast<CuStream>(uintptr_t{2});

struct ErrorName {
  CuResult code;
  const char* name;
};
constexpr ErrorName kErrorNames[] = {
    {kSuccess, "CUDA_SUCCESS"},
    {kErrorInvalidValue, "CUDA_ERROR_INVALID_VALUE"},
    {kErrorOutOfMemory, "CUDA_ERROR_OUT_OF_MEMORY"},
    {kErrorNotInitialized, "CUDA_ERROR_NOT_INITIALIZED"},
    {kErrorNoDevice, "CUDA_ERROR_NO_DEVICE"},
    {kErrorInvalidDevice, "CUDA_ERROR_INVALID_DEVICE"},
    {kErrorInvalidContext, "CUDA_ERROR_INVALID_CONTEXT"},
    {kErrorMapFailed, "CUDA_ERROR_MAP_FAILED"},
    {kErrorInvalidHandle, "CUDA_ERROR_INVALID_HANDLE"},
    {kErrorNotFound, "CUDA_ERROR_NOT_FOUND"},
    {kErrorNotSupported, "CUDA_ERROR_NOT_SUPPORTED"},
};

}  // namespace

bool initialized() { return g_initialized.load(std::memory_order_acquire); }

CuResult require_context() {
  if (!initialized()) return kErrorNotInitialized;
  return t_current != nullptr ? kSuccess : kErrorInvalidContext;
}

void note_allocation() { g_allocated.store(true, std::memory_order_release); }

CuContext primary_context() { return &g_primary_context_object; }

bool known_stream(CuStream stream) {
  if (stream == nullptr || stream == kStreamLegacy || stream == kStreamPerThread) return true;
  return g_streams.knows(stream);
}

}  // namespace fake_cuda

using namespace fake_cuda;

// Tells the fake runtime (tests/gpu/fake_cudart.c) that the libcuda.so.1 it loaded is this one.
FAKE_CUDA_API const char weft_fake_cuda_driver[] = "Weft's fake CUDA driver over host memory";

FAKE_CUDA_API CuResult cuInit(unsigned flags) {
  if (flags != 0) return kErrorInvalidValue;
  g_initialized.store(true, std::memory_order_release);
  return kSuccess;
}

FAKE_CUDA_API CuResult cuDriverGetVersion(int* version) {
  if (version == nullptr) return kErrorInvalidValue;
  *version = kDriverVersion;  // answered before cuInit too, as the real driver does
  return kSuccess;
}

FAKE_CUDA_API CuResult cuDeviceGetCount(int* count) {
  if (!initialized()) return kErrorNotInitialized;
  if (count == nullptr) return kErrorInvalidValue;
  *count = 1;
  return kSuccess;
}

FAKE_CUDA_API CuResult cuDeviceGet(CuDevice* device, int ordinal) {
  if (!initialized()) return kErrorNotInitialized;
  if (device == nullptr) return kErrorInvalidValue;
  if (ordinal != 0) return kErrorInvalidDevice;
  *device = 0;
  return kSuccess;
}

FAKE_CUDA_API CuResult cuDeviceGetName(char* name, int length, CuDevice device) {
  if (!initialized()) return kErrorNotInitialized;
  if (device != 0) return kErrorInvalidDevice;
  if (name == nullptr || length <= 0) return kErrorInvalidValue;
  std::strncpy(name, kDeviceName, size_t(length) - 1);
  name[length - 1] = '\0';
  return kSuccess;
}

FAKE_CUDA_API CuResult cuDevicePrimaryCtxRetain(CuContext* context, CuDevice device) {
  if (!initialized()) return kErrorNotInitialized;
  if (device != 0) return kErrorInvalidDevice;
  if (context == nullptr) return kErrorInvalidValue;
  g_primary_retains.fetch_add(1, std::memory_order_acq_rel);
  *context = primary_context();
  return kSuccess;
}

FAKE_CUDA_API CuResult cuDevicePrimaryCtxGetState(CuDevice device, unsigned* flags, int* active) {
  if (!initialized()) return kErrorNotInitialized;
  if (device != 0) return kErrorInvalidDevice;
  if (flags == nullptr || active == nullptr) return kErrorInvalidValue;
  *flags = 0;
  *active = g_primary_retains.load(std::memory_order_acquire) > 0 ||
                    g_allocated.load(std::memory_order_acquire)
                ? 1
                : 0;
  return kSuccess;
}

FAKE_CUDA_API CuResult cuCtxGetCurrent(CuContext* context) {
  if (!initialized()) return kErrorNotInitialized;
  if (context == nullptr) return kErrorInvalidValue;
  *context = t_current;
  return kSuccess;
}

FAKE_CUDA_API CuResult cuCtxSetCurrent(CuContext context) {
  if (!initialized()) return kErrorNotInitialized;
  if (context != nullptr && context != primary_context()) return kErrorInvalidContext;
  t_current = context;
  return kSuccess;
}

// Every copy and memset is done when its call returns: there is never work to wait for.
FAKE_CUDA_API CuResult cuCtxSynchronize() { return require_context(); }

FAKE_CUDA_API CuResult cuStreamCreate(CuStream* stream, unsigned flags) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  if (stream == nullptr || flags > 1) return kErrorInvalidValue;  // CU_STREAM_NON_BLOCKING is 1
  *stream = g_streams.make();
  return kSuccess;
}

FAKE_CUDA_API CuResult cuStreamSynchronize(CuStream stream) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  return known_stream(stream) ? kSuccess : kErrorInvalidHandle;
}

FAKE_CUDA_API CuResult cuStreamDestroy_v2(CuStream stream) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  return g_streams.destroy(stream) ? kSuccess : kErrorInvalidHandle;
}

// An event marks a point in a stream; every copy is done when its call returns, so every
// recorded event has completed.
FAKE_CUDA_API CuResult cuEventCreate(CuEvent* event, unsigned flags) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  if (event == nullptr || flags > 0xF) return kErrorInvalidValue;
  *event = g_events.make();
  return kSuccess;
}

FAKE_CUDA_API CuResult cuEventRecord(CuEvent event, CuStream stream) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  return g_events.knows(event) && known_stream(stream) ? kSuccess : kErrorInvalidHandle;
}

FAKE_CUDA_API CuResult cuEventSynchronize(CuEvent event) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  return g_events.knows(event) ? kSuccess : kErrorInvalidHandle;
}

FAKE_CUDA_API CuResult cuEventDestroy_v2(CuEvent event) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  return g_events.destroy(event) ? kSuccess : kErrorInvalidHandle;
}

FAKE_CUDA_API CuResult cuGetErrorName(CuResult error, const char** text) {
  if (text == nullptr) return kErrorInvalidValue;
  for (const ErrorName& e : kErrorNames) {
    if (e.code == error) {
      *text = e.name;
      return kSuccess;
    }
  }
  *text = nullptr;
  return kErrorInvalidValue;
}

// The error's name (the real driver gives a sentence; a name is what the fake's users print).
FAKE_CUDA_API CuResult cuGetErrorString(CuResult error, const char** text) {
  return cuGetErrorName(error, text);
}
