// The fake driver's initialisation, its one device, the primary context, streams, events, host
// functions and error names: the entry points that touch no memory.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

#include "fake_driver.hpp"
#include "memory_table.hpp"
#include "streams.hpp"

namespace fake_cuda {
namespace {

constexpr char kDeviceName[] = "Weft fake GPU (host memory)";

std::atomic<bool> g_initialized{false};
std::atomic<int> g_primary_retains{0};
std::atomic<bool> g_allocated{false};
int g_primary_context_object;  // its address is the context handle
thread_local CuContext t_current = nullptr;

// The events the driver made and did not destroy yet, each with the point of its stream it
// last recorded (none: an event never recorded counts as complete).
std::mutex g_events_mutex;
std::map<CuEvent, Mark> g_events;

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

FAKE_CUDA_API CuResult cuCtxSynchronize() {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  return wait_all();
}

FAKE_CUDA_API CuResult cuStreamCreate(CuStream* stream, unsigned flags) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  if (stream == nullptr || flags > 1) return kErrorInvalidValue;  // CU_STREAM_NON_BLOCKING is 1
  *stream = make_stream(flags == 0);
  return kSuccess;
}

FAKE_CUDA_API CuResult cuStreamSynchronize(CuStream stream) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  return known_stream(stream) ? wait(mark(stream)) : kErrorInvalidHandle;
}

FAKE_CUDA_API CuResult cuStreamDestroy_v2(CuStream stream) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  return destroy_stream(stream) ? kSuccess : kErrorInvalidHandle;
}

// Runs fn(data) on the stream's thread once the stream's earlier work is done; the stream's
// later work waits for it to return. Like the real driver's, it must make no CUDA call. The
// host functions of all streams run one at a time, as the real driver may run them ("may be
// serialized"): one that waits for another stream's host function deadlocks here as it may on
// a GPU.
FAKE_CUDA_API CuResult cuLaunchHostFunc(CuStream stream, void (*fn)(void*), void* data) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  if (fn == nullptr) return kErrorInvalidValue;
  if (!known_stream(stream)) return kErrorInvalidHandle;
  enqueue(stream, [fn, data] {
    static std::mutex one_at_a_time;
    std::lock_guard<std::mutex> g(one_at_a_time);
    fn(data);
    return kSuccess;
  });
  return kSuccess;
}

// Not the driver's: what the fake NCCL (tests/gpu/fake_nccl) needs to run its collectives as
// kernels would. fn(data) runs on the stream's thread in the stream's order, holding only that
// stream while it waits for other processes (not serialised with host functions); a result other
// than 0 is the stream's failure. Device memory is read and written at host_view's addresses.
FAKE_CUDA_API CuResult weft_fake_cuda_launch(CuStream stream, int (*fn)(void*), void* data) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  if (fn == nullptr) return kErrorInvalidValue;
  if (!known_stream(stream)) return kErrorInvalidHandle;
  enqueue(stream, [fn, data] { return CuResult(fn(data)); });
  return kSuccess;
}
FAKE_CUDA_API void* weft_fake_cuda_host_view(CuDevicePtr address, size_t bytes) {
  return memory().host_view(address, bytes);
}

// Holds the stream until (int32_t)(*address - value) >= 0, the word read as the device would,
// without any host thread's help. Only CU_STREAM_WAIT_VALUE_GEQ (0); with
// WEFT_FAKE_CUDA_NO_STREAM_WAIT=1 unsupported, as on a device without stream memory operations.
FAKE_CUDA_API CuResult cuStreamWaitValue32_v2(CuStream stream, CuDevicePtr address, unsigned value,
                                              unsigned flags) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  const char* refuse = std::getenv("WEFT_FAKE_CUDA_NO_STREAM_WAIT");
  if ((refuse != nullptr && std::strcmp(refuse, "1") == 0) || flags != 0) return kErrorNotSupported;
  if (!known_stream(stream)) return kErrorInvalidHandle;
  if (address == 0 || address % 4 != 0) return kErrorInvalidValue;
  enqueue(stream, [address, value] {
    const auto* word = reinterpret_cast<const uint32_t*>(uintptr_t(address));
    while (int32_t(__atomic_load_n(word, __ATOMIC_ACQUIRE) - value) < 0)
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    return kSuccess;
  });
  return kSuccess;
}

// An event marks the point of a stream it was last recorded at.
FAKE_CUDA_API CuResult cuEventCreate(CuEvent* event, unsigned flags) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  if (event == nullptr || flags > 0xF) return kErrorInvalidValue;
  *event = new char;
  std::lock_guard<std::mutex> g(g_events_mutex);
  g_events[*event] = Mark{};
  return kSuccess;
}

FAKE_CUDA_API CuResult cuEventRecord(CuEvent event, CuStream stream) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  if (!known_stream(stream)) return kErrorInvalidHandle;
  std::lock_guard<std::mutex> g(g_events_mutex);
  auto it = g_events.find(event);
  if (it == g_events.end()) return kErrorInvalidHandle;
  it->second = mark(stream);
  return kSuccess;
}

FAKE_CUDA_API CuResult cuEventSynchronize(CuEvent event) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  Mark recorded;
  {
    std::lock_guard<std::mutex> g(g_events_mutex);
    auto it = g_events.find(event);
    if (it == g_events.end()) return kErrorInvalidHandle;
    recorded = it->second;
  }
  return wait(recorded);
}

FAKE_CUDA_API CuResult cuEventDestroy_v2(CuEvent event) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  std::lock_guard<std::mutex> g(g_events_mutex);
  if (g_events.erase(event) == 0) return kErrorInvalidHandle;
  delete static_cast<char*>(event);
  return kSuccess;
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
