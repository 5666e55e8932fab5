// A CUDA driver table (gpu/cuda_driver.hpp) for unit tests of CudaMemory: one device whose
// memory is host memory, two contexts, and a log of the calls tests look at.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "gpu/cuda_driver.hpp"

namespace weft::test {

// A driver whose one device's memory is host memory: allocations it "made" are the ranges in
// g_allocations; every pointer it does not know is unregistered host memory.
namespace fake_driver {

struct Allocation {
  uint64_t size, id;
  bool pool;
};
inline std::map<uint64_t, Allocation> g_allocations;  // by base
inline gpu::CuResult g_open_result = gpu::kCuSuccess;
inline std::vector<std::string> g_calls;

inline const std::pair<const uint64_t, Allocation>* find(gpu::CuDevicePtr p) {
  auto it = g_allocations.upper_bound(p);
  if (it == g_allocations.begin()) return nullptr;
  --it;
  return p < it->first + it->second.size ? &*it : nullptr;
}

inline gpu::CuResult ok_flags(unsigned) { return gpu::kCuSuccess; }
inline gpu::CuResult version(int* v) { return *v = 13000, gpu::kCuSuccess; }
inline gpu::CuResult count(int* n) { return *n = 1, gpu::kCuSuccess; }
inline gpu::CuResult name(char* s, int len, int) {
  std::snprintf(s, size_t(len), "fake");
  return gpu::kCuSuccess;
}
inline gpu::CuResult attributes(unsigned n, int* which, void** data, gpu::CuDevicePtr p) {
  const auto* a = find(p);
  if (a == nullptr) return gpu::kCuErrorInvalidValue;
  for (unsigned i = 0; i < n; ++i) {
    if (which[i] == gpu::kCuPointerAttributeMemoryType) *static_cast<unsigned*>(data[i]) = 2;
    if (which[i] == gpu::kCuPointerAttributeIsManaged) *static_cast<bool*>(data[i]) = false;
    if (which[i] == gpu::kCuPointerAttributeBufferId)
      *static_cast<unsigned long long*>(data[i]) = a->second.id;
    if (which[i] == gpu::kCuPointerAttributeRangeStartAddr)
      *static_cast<gpu::CuDevicePtr*>(data[i]) = a->first;
    if (which[i] == gpu::kCuPointerAttributeRangeSize)
      *static_cast<size_t*>(data[i]) = a->second.size;
  }
  return gpu::kCuSuccess;
}
inline int g_contexts[2];                          // two devices' contexts
inline gpu::CuContext g_current = &g_contexts[0];  // the calling thread's
inline std::map<gpu::CuStream, gpu::CuContext> g_stream_context;
inline std::vector<gpu::CuStream> g_copy_streams;  // the stream of each copy
inline gpu::CuResult retain(gpu::CuContext* c, int) { return *c = &g_contexts[0], gpu::kCuSuccess; }
inline gpu::CuResult state(int, unsigned* flags, int* active) {
  *flags = 0;
  *active = 1;
  return gpu::kCuSuccess;
}
inline gpu::CuResult current(gpu::CuContext* c) { return *c = g_current, gpu::kCuSuccess; }
inline gpu::CuResult set_current(gpu::CuContext c) { return g_current = c, gpu::kCuSuccess; }
inline gpu::CuResult stream_create(gpu::CuStream* s, unsigned) {
  *s = new int(0);  // a fresh handle (never freed: a test's few)
  g_stream_context[*s] = g_current;
  return gpu::kCuSuccess;
}
inline gpu::CuResult stream_sync(gpu::CuStream) { return gpu::kCuSuccess; }
// Events: each made, recorded (on the stream of the copy before it) and waited for is noted.
inline std::map<gpu::CuEvent, gpu::CuContext> g_event_context;
inline gpu::CuResult g_event_wait_result = gpu::kCuSuccess;
inline gpu::CuResult event_create(gpu::CuEvent* e, unsigned flags) {
  g_calls.push_back("event create flags " + std::to_string(flags));
  *e = new int(0);  // never freed: a test's few
  g_event_context[*e] = g_current;
  return gpu::kCuSuccess;
}
inline gpu::CuResult event_record(gpu::CuEvent e, gpu::CuStream) {
  g_calls.push_back("record " + std::to_string(g_event_context.count(e)));
  return gpu::kCuSuccess;
}
inline gpu::CuResult event_sync(gpu::CuEvent e) {
  g_calls.push_back("wait " + std::to_string(g_event_context.count(e)));
  return g_event_wait_result;
}
// Pinned memory: plain host memory, each allocation and release noted.
inline gpu::CuResult host_alloc(void** p, size_t bytes, unsigned) {
  g_calls.push_back("host alloc " + std::to_string(bytes));
  *p = new unsigned char[bytes];
  return gpu::kCuSuccess;
}
inline gpu::CuResult free_host(void* p) {
  g_calls.push_back("free host");
  delete[] static_cast<unsigned char*>(p);
  return gpu::kCuSuccess;
}
// Device memory: host memory here, each allocation and release noted.
inline gpu::CuResult device_alloc(gpu::CuDevicePtr* p, size_t bytes) {
  g_calls.push_back("alloc " + std::to_string(bytes));
  *p = gpu::CuDevicePtr(reinterpret_cast<uintptr_t>(new unsigned char[bytes]));
  return gpu::kCuSuccess;
}
inline gpu::CuResult device_free(gpu::CuDevicePtr p) {
  g_calls.push_back("free");
  delete[] reinterpret_cast<unsigned char*>(uintptr_t(p));
  return gpu::kCuSuccess;
}
inline gpu::CuResult copy(gpu::CuDevicePtr dst, gpu::CuDevicePtr src, size_t bytes,
                          gpu::CuStream s) {
  g_copy_streams.push_back(s);
  std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<void*>(src), bytes);
  return gpu::kCuSuccess;
}
inline gpu::CuResult get_handle(gpu::CuIpcMemHandle* h, gpu::CuDevicePtr p) {
  g_calls.push_back("get handle");
  const auto* a = find(p);
  if (a == nullptr || a->second.pool || a->first != p) return gpu::kCuErrorInvalidValue;
  std::memset(h->reserved, 0, sizeof h->reserved);
  std::memcpy(h->reserved, &p, sizeof p);
  return gpu::kCuSuccess;
}
inline gpu::CuResult open_handle(gpu::CuDevicePtr* p, gpu::CuIpcMemHandle h, unsigned flags) {
  g_calls.push_back("open flags " + std::to_string(flags));
  if (g_open_result != gpu::kCuSuccess) return g_open_result;
  std::memcpy(p, h.reserved, sizeof *p);  // the same address: it is all one process here
  return gpu::kCuSuccess;
}
inline gpu::CuResult close_handle(gpu::CuDevicePtr) {
  g_calls.push_back("close");
  return gpu::kCuSuccess;
}
inline gpu::CuResult error_string(gpu::CuResult e, const char** text) {
  *text = e == 217 ? "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED" : "CUDA_ERROR_INVALID_VALUE";
  return gpu::kCuSuccess;
}

// cuStreamWaitValue32_v2: noted, answering g_wait_value_result.
inline gpu::CuResult g_wait_value_result = gpu::kCuSuccess;
inline gpu::CuResult wait_value(gpu::CuStream, gpu::CuDevicePtr, unsigned value, unsigned flags) {
  g_calls.push_back("wait value " + std::to_string(value) + " flags " + std::to_string(flags));
  return g_wait_value_result;
}

inline gpu::CudaDriver table() {
  gpu::CudaDriver d;
  d.init = ok_flags;
  d.driver_get_version = version;
  d.device_get_count = count;
  d.device_get_name = name;
  d.pointer_get_attributes = attributes;
  d.primary_ctx_retain = retain;
  d.primary_ctx_get_state = state;
  d.ctx_get_current = current;
  d.ctx_set_current = set_current;
  d.stream_create = stream_create;
  d.stream_synchronize = stream_sync;
  d.memcpy_async = copy;
  d.event_create = event_create;
  d.event_record = event_record;
  d.event_synchronize = event_sync;
  d.mem_host_alloc = host_alloc;
  d.mem_free_host = free_host;
  d.mem_alloc = device_alloc;
  d.mem_free = device_free;
  d.ipc_get_mem_handle = get_handle;
  d.ipc_open_mem_handle = open_handle;
  d.ipc_close_mem_handle = close_handle;
  d.get_error_string = error_string;
  d.stream_wait_value32 = wait_value;
  return d;
}

}  // namespace fake_driver

}  // namespace weft::test
