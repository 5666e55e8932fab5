// CUDA IPC on the host side: the cache of other processes' allocations (gpu/ipc_cache.hpp) with a
// counting stand-in for device memory, and CudaMemory's export, open and reduction fallback over a
// fake driver table (gpu/cuda_driver.hpp) whose "device" memory is host memory.
#include <dlfcn.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "gpu/cuda_driver.hpp"
#include "gpu/cuda_memory.hpp"
#include "gpu/ipc_cache.hpp"
#include "inert_device_memory.hpp"
#include "runtime/op/op.hpp"

using namespace weft;
using gpu::ExportedMemory;

namespace {

// Opens as many mappings as asked, each at a new address, and remembers which are open.
class CountingMemory final : public test::InertDeviceMemory {
 public:
  void* open_exported(const ExportedMemory& m, std::string* why) override {
    if (refuse) {
      *why = "refused";
      return nullptr;
    }
    ++opens;
    void* here = reinterpret_cast<void*>(next_address += 0x100000);
    open[here] = m.buffer_id;
    return here;
  }
  void close_exported(void* here) override { REQUIRE(open.erase(here) == 1); }

  bool refuse = false;
  int opens = 0;
  uintptr_t next_address = 0x7000000;
  std::map<void*, uint64_t> open;  // mapping -> the buffer id it maps
};

ExportedMemory allocation(uint64_t base, uint64_t size, uint64_t id) {
  ExportedMemory m;
  m.base = base;
  m.size = size;
  m.buffer_id = id;
  return m;
}

}  // namespace

TEST_CASE("ipc cache: an allocation is mapped once per owner and kept") {
  CountingMemory memory;
  gpu::IpcCache cache;
  std::string why;
  const ExportedMemory a = allocation(0x10000, 4096, 1);
  void* first = cache.map(memory, 1, a, &why);
  REQUIRE(first != nullptr);
  CHECK(cache.map(memory, 1, a, &why) == first);
  CHECK(memory.opens == 1);
  // The same addresses in another process are another allocation.
  void* other = cache.map(memory, 2, a, &why);
  CHECK(other != first);
  CHECK(memory.opens == 2);
  cache.clear(memory);
  CHECK(memory.open.empty());
  CHECK(cache.size() == 0);
}

TEST_CASE("ipc cache: an allocation freed and replaced at its addresses is mapped again") {
  CountingMemory memory;
  gpu::IpcCache cache;
  std::string why;
  void* old_mapping = cache.map(memory, 1, allocation(0x10000, 4096, 1), &why);
  // Same base, new buffer id: the old mapping goes, the new allocation is mapped.
  void* renewed = cache.map(memory, 1, allocation(0x10000, 4096, 2), &why);
  CHECK(renewed != old_mapping);
  CHECK(memory.open.size() == 1);
  CHECK(memory.open.at(renewed) == 2);
  // A larger allocation over part of it replaces it too.
  void* larger = cache.map(memory, 1, allocation(0x8000, 0x10000, 3), &why);
  CHECK(memory.open.size() == 1);
  CHECK(memory.open.at(larger) == 3);
  // One beside it (no overlap) is kept beside it.
  cache.map(memory, 1, allocation(0x18000, 4096, 4), &why);
  CHECK(memory.open.size() == 2);
  cache.clear(memory);
}

TEST_CASE("ipc cache: beyond its capacity the least recently used mapping goes") {
  CountingMemory memory;
  gpu::IpcCache cache(2);
  std::string why;
  const ExportedMemory a = allocation(0x10000, 4096, 1), b = allocation(0x20000, 4096, 2),
                       c = allocation(0x30000, 4096, 3);
  cache.map(memory, 1, a, &why);
  cache.map(memory, 1, b, &why);
  cache.map(memory, 1, a, &why);  // a used last: b goes next
  cache.map(memory, 1, c, &why);
  CHECK(cache.size() == 2);
  CHECK(memory.opens == 3);
  cache.map(memory, 1, a, &why);
  CHECK(memory.opens == 3);  // still there
  cache.map(memory, 1, b, &why);
  CHECK(memory.opens == 4);  // had gone
  cache.clear(memory);
}

TEST_CASE("ipc cache: a refused mapping says why and is not kept") {
  CountingMemory memory;
  memory.refuse = true;
  gpu::IpcCache cache;
  std::string why;
  CHECK(cache.map(memory, 1, allocation(0x10000, 4096, 1), &why) == nullptr);
  CHECK(why == "refused");
  CHECK(cache.size() == 0);
  memory.refuse = false;
  CHECK(cache.map(memory, 1, allocation(0x10000, 4096, 1), &why) != nullptr);
  cache.clear(memory);
}

// A driver whose one device's memory is host memory: allocations it "made" are the ranges in
// g_allocations; every pointer it does not know is unregistered host memory.
namespace fake_driver {

struct Allocation {
  uint64_t size, id;
  bool pool;
};
std::map<uint64_t, Allocation> g_allocations;  // by base
gpu::CuResult g_open_result = gpu::kCuSuccess;
std::vector<std::string> g_calls;

const std::pair<const uint64_t, Allocation>* find(gpu::CuDevicePtr p) {
  auto it = g_allocations.upper_bound(p);
  if (it == g_allocations.begin()) return nullptr;
  --it;
  return p < it->first + it->second.size ? &*it : nullptr;
}

gpu::CuResult ok_flags(unsigned) { return gpu::kCuSuccess; }
gpu::CuResult version(int* v) { return *v = 13000, gpu::kCuSuccess; }
gpu::CuResult count(int* n) { return *n = 1, gpu::kCuSuccess; }
gpu::CuResult name(char* s, int len, int) {
  std::snprintf(s, size_t(len), "fake");
  return gpu::kCuSuccess;
}
gpu::CuResult attributes(unsigned n, int* which, void** data, gpu::CuDevicePtr p) {
  const auto* a = find(p);
  if (a == nullptr) return gpu::kCuErrorInvalidValue;
  for (unsigned i = 0; i < n; ++i) {
    if (which[i] == gpu::kCuPointerAttributeMemoryType) *static_cast<unsigned*>(data[i]) = 2;
    if (which[i] == gpu::kCuPointerAttributeIsManaged) *static_cast<bool*>(data[i]) = false;
    if (which[i] == gpu::kCuPointerAttributeBufferId)
      *static_cast<unsigned long long*>(data[i]) = a->second.id;
  }
  return gpu::kCuSuccess;
}
int g_contexts[2];                          // two devices' contexts
gpu::CuContext g_current = &g_contexts[0];  // the calling thread's
std::map<gpu::CuStream, gpu::CuContext> g_stream_context;
std::vector<gpu::CuStream> g_copy_streams;  // the stream of each copy
gpu::CuResult retain(gpu::CuContext* c, int) { return *c = &g_contexts[0], gpu::kCuSuccess; }
gpu::CuResult state(int, unsigned* flags, int* active) {
  *flags = 0;
  *active = 1;
  return gpu::kCuSuccess;
}
gpu::CuResult current(gpu::CuContext* c) { return *c = g_current, gpu::kCuSuccess; }
gpu::CuResult set_current(gpu::CuContext c) { return g_current = c, gpu::kCuSuccess; }
gpu::CuResult stream_create(gpu::CuStream* s, unsigned) {
  *s = new int(0);  // a fresh handle (never freed: a test's few)
  g_stream_context[*s] = g_current;
  return gpu::kCuSuccess;
}
gpu::CuResult stream_sync(gpu::CuStream) { return gpu::kCuSuccess; }
gpu::CuResult copy(gpu::CuDevicePtr dst, gpu::CuDevicePtr src, size_t bytes, gpu::CuStream s) {
  g_copy_streams.push_back(s);
  std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<void*>(src), bytes);
  return gpu::kCuSuccess;
}
gpu::CuResult range(gpu::CuDevicePtr* base, size_t* size, gpu::CuDevicePtr p) {
  const auto* a = find(p);
  if (a == nullptr) return gpu::kCuErrorInvalidValue;
  *base = a->first;
  *size = a->second.size;
  return gpu::kCuSuccess;
}
gpu::CuResult get_handle(gpu::CuIpcMemHandle* h, gpu::CuDevicePtr p) {
  const auto* a = find(p);
  if (a == nullptr || a->second.pool || a->first != p) return gpu::kCuErrorInvalidValue;
  std::memset(h->reserved, 0, sizeof h->reserved);
  std::memcpy(h->reserved, &p, sizeof p);
  return gpu::kCuSuccess;
}
gpu::CuResult open_handle(gpu::CuDevicePtr* p, gpu::CuIpcMemHandle h, unsigned flags) {
  g_calls.push_back("open flags " + std::to_string(flags));
  if (g_open_result != gpu::kCuSuccess) return g_open_result;
  std::memcpy(p, h.reserved, sizeof *p);  // the same address: it is all one process here
  return gpu::kCuSuccess;
}
gpu::CuResult close_handle(gpu::CuDevicePtr) {
  g_calls.push_back("close");
  return gpu::kCuSuccess;
}
gpu::CuResult error_string(gpu::CuResult e, const char** text) {
  *text = e == 217 ? "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED" : "CUDA_ERROR_INVALID_VALUE";
  return gpu::kCuSuccess;
}

gpu::CudaDriver table() {
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
  d.mem_get_address_range = range;
  d.ipc_get_mem_handle = get_handle;
  d.ipc_open_mem_handle = open_handle;
  d.ipc_close_mem_handle = close_handle;
  d.get_error_string = error_string;
  return d;
}

}  // namespace fake_driver

TEST_CASE("cuda memory: a device buffer is exported as its whole allocation, with its id") {
  std::vector<unsigned char> device(4096);
  const auto base = uint64_t(reinterpret_cast<uintptr_t>(device.data()));
  fake_driver::g_allocations = {{base, {4096, 42, false}}};
  gpu::CudaMemory memory(fake_driver::table());
  ExportedMemory m;
  REQUIRE(memory.export_memory(device.data() + 1000, &m));
  CHECK(m.base == base);
  CHECK(m.size == 4096);
  CHECK(m.buffer_id == 42);
  uint64_t named = 0;
  std::memcpy(&named, m.handle, sizeof named);
  CHECK(named == base);  // the handle of the allocation, not of the pointer inside it
  // Memory of a stream-ordered pool cannot be shared; memory CUDA does not know is not device's.
  fake_driver::g_allocations = {{base, {4096, 43, true}}};
  CHECK_FALSE(memory.export_memory(device.data(), &m));
  fake_driver::g_allocations.clear();
  CHECK_FALSE(memory.export_memory(device.data(), &m));
}

TEST_CASE(
    "cuda memory: opening another process's allocation asks for peer access, or says why not") {
  fake_driver::g_calls.clear();
  gpu::CudaMemory memory(fake_driver::table());
  ExportedMemory m;
  const uint64_t there = 0x12340000;
  std::memcpy(m.handle, &there, sizeof there);
  std::string why;
  fake_driver::g_open_result = gpu::kCuSuccess;
  CHECK(memory.open_exported(m, &why) == reinterpret_cast<void*>(uintptr_t(there)));
  REQUIRE(fake_driver::g_calls.size() == 1);
  CHECK(fake_driver::g_calls[0] == "open flags 1");  // CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS
  memory.close_exported(reinterpret_cast<void*>(uintptr_t(there)));
  CHECK(fake_driver::g_calls.back() == "close");
  fake_driver::g_open_result = 217;
  CHECK(memory.open_exported(m, &why) == nullptr);
  CHECK(why == "cuIpcOpenMemHandle failed: CUDA_ERROR_PEER_ACCESS_UNSUPPORTED (217)");
  fake_driver::g_open_result = gpu::kCuSuccess;
}

TEST_CASE("cuda memory: device data is reduced on the host where no kernel can be launched") {
  // No GPU here: a kernel launch fails (or Weft has no kernels), and the sum comes out right
  // through host copies; from then on no reduction is offered to run on the device. Where a
  // real driver is installed the launch would go to a GPU with these host addresses: not here.
  if (void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(driver);
    WARN("a CUDA driver is installed: the no-kernel fallback is not tested here");
    return;
  }
  std::vector<int> in{1, 2, 3, 4}, inout{10, 20, 30, 40};
  const auto base = uint64_t(reinterpret_cast<uintptr_t>(inout.data()));
  fake_driver::g_allocations = {{base, {inout.size() * sizeof(int), 7, false}}};
  gpu::CudaMemory memory(fake_driver::table());
  Reduction r;
  r.op = MPI_SUM;
  r.datatype = MPI_INT;
  r.elem_size = sizeof(int);
  r.kernel = predefined_kernel(MPI_SUM, MPI_INT, sizeof(int));
  REQUIRE(memory.reduce(r, in.data(), inout.data(), in.size()).ok());
  CHECK(inout == std::vector<int>{11, 22, 33, 44});
  CHECK_FALSE(memory.can_reduce(r));
  fake_driver::g_allocations.clear();
}

TEST_CASE("cuda memory: copies run on a stream of the context current on the calling thread") {
  // A process driving two GPUs switches contexts; a stream belongs to the context it was made in.
  gpu::CudaMemory memory(fake_driver::table());
  fake_driver::g_copy_streams.clear();
  int a = 1, b = 0;
  fake_driver::g_current = &fake_driver::g_contexts[0];
  REQUIRE(memory.copy(&b, &a, sizeof a).ok());
  fake_driver::g_current = &fake_driver::g_contexts[1];
  REQUIRE(memory.copy(&b, &a, sizeof a).ok());
  fake_driver::g_current = &fake_driver::g_contexts[0];
  REQUIRE(memory.copy(&b, &a, sizeof a).ok());
  REQUIRE(fake_driver::g_copy_streams.size() == 3);
  const auto context_of = [](gpu::CuStream s) { return fake_driver::g_stream_context.at(s); };
  CHECK(context_of(fake_driver::g_copy_streams[0]) == &fake_driver::g_contexts[0]);
  CHECK(context_of(fake_driver::g_copy_streams[1]) == &fake_driver::g_contexts[1]);
  CHECK(fake_driver::g_copy_streams[2] == fake_driver::g_copy_streams[0]);  // made once
  // A thread with no context current gets device 0's primary context.
  fake_driver::g_current = nullptr;
  REQUIRE(memory.copy(&b, &a, sizeof a).ok());
  CHECK(fake_driver::g_current == &fake_driver::g_contexts[0]);
  CHECK(fake_driver::g_copy_streams.back() == fake_driver::g_copy_streams[0]);
}
