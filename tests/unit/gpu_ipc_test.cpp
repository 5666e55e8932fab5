// CUDA IPC on the host side: the cache of other processes' allocations (gpu/ipc_cache.hpp) with a
// counting stand-in for device memory. (CudaMemory's side: cuda_memory_test.cpp.)
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <string>

#include "gpu/ipc_cache.hpp"
#include "inert_device_memory.hpp"

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
