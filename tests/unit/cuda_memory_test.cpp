// CudaMemory (gpu/cuda_memory.hpp) over a fake driver table (fake_driver_table.hpp): export and
// open for CUDA IPC, the reduction fallback, streams per context, copies started and waited for
// on events, and pinned blocks kept for reuse.
#include "gpu/cuda_memory.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fake_driver_table.hpp"
#include "runtime/op/op.hpp"

using namespace weft;
using gpu::ExportedMemory;
namespace fake_driver = weft::test::fake_driver;

TEST_CASE("cuda memory: a device buffer is exported as its whole allocation, with its id") {
  std::vector<unsigned char> device(4096);
  const auto base = uint64_t(reinterpret_cast<uintptr_t>(device.data()));
  fake_driver::g_allocations = {{base, {4096, 42, false}}};
  fake_driver::g_calls.clear();
  gpu::CudaMemory memory(fake_driver::table());
  ExportedMemory m;
  REQUIRE(memory.export_memory(device.data() + 1000, &m));
  CHECK(m.base == base);
  CHECK(m.size == 4096);
  CHECK(m.buffer_id == 42);
  uint64_t named = 0;
  std::memcpy(&named, m.handle, sizeof named);
  CHECK(named == base);  // the handle of the allocation, not of the pointer inside it
  // Exported again: the handle asked for the first time. Freed and allocated again at the same
  // address (a new buffer id): a new one.
  const auto handles = [] {
    return std::count(fake_driver::g_calls.begin(), fake_driver::g_calls.end(), "get handle");
  };
  REQUIRE(memory.export_memory(device.data() + 2000, &m));
  CHECK(m.buffer_id == 42);
  CHECK(handles() == 1);
  fake_driver::g_allocations = {{base, {4096, 44, false}}};
  REQUIRE(memory.export_memory(device.data(), &m));
  CHECK(m.buffer_id == 44);
  CHECK(handles() == 2);
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

TEST_CASE("cuda memory: a started copy is waited for on an event of its own, kept for the next") {
  gpu::CudaMemory memory(fake_driver::table());
  fake_driver::g_current = &fake_driver::g_contexts[0];
  fake_driver::g_calls.clear();
  int a = 5, b = 0, c = 6, d = 0;
  gpu::CopyStarted first = nullptr, second = nullptr;
  REQUIRE(memory.start_copy(&b, &a, sizeof a, &first).ok());
  REQUIRE(memory.start_copy(&d, &c, sizeof c, &second).ok());
  CHECK(first != second);
  REQUIRE(memory.wait_copy(first).ok());
  REQUIRE(memory.wait_copy(second).ok());
  CHECK(b == 5);
  CHECK(d == 6);
  const std::vector<std::string> expected{"event create flags 2",  // CU_EVENT_DISABLE_TIMING
                                          "record 1",
                                          "event create flags 2",
                                          "record 1",
                                          "wait 1",
                                          "wait 1"};
  CHECK(fake_driver::g_calls == expected);
  fake_driver::g_calls.clear();
  gpu::CopyStarted third = nullptr;
  REQUIRE(memory.start_copy(&b, &a, sizeof a, &third).ok());
  CHECK((third == first || third == second));  // an event waited for is used again
  fake_driver::g_event_wait_result = gpu::kCuErrorInvalidValue;
  const Status s = memory.wait_copy(third);
  fake_driver::g_event_wait_result = gpu::kCuSuccess;
  CHECK(s.error_class == MPI_ERR_OTHER);
  CHECK(s.message == "cuEventSynchronize failed: CUDA_ERROR_INVALID_VALUE (1)");
  CHECK(fake_driver::g_calls == std::vector<std::string>{"record 1", "wait 1"});
  gpu::CopyStarted none = &a;
  REQUIRE(memory.start_copy(&b, &a, 0, &none).ok());  // nothing to copy: nothing to wait for
  CHECK(none == nullptr);
  CHECK(memory.wait_copy(none).ok());
}

TEST_CASE("cuda memory: device blocks given back are kept and lent again, not freed each time") {
  gpu::CudaMemory memory(fake_driver::table());
  fake_driver::g_calls.clear();
  void* p = memory.allocate_device(65536);
  memory.free_device(p);
  CHECK(memory.allocate_device(65536) == p);  // no cuMemFree (which waits for the device)
  CHECK(fake_driver::g_calls == std::vector<std::string>{"alloc 65536"});
  void* big1 = memory.allocate_device(size_t(40) << 20);
  void* big2 = memory.allocate_device(size_t(40) << 20);
  memory.free_device(big1);
  memory.free_device(big2);  // would pass 64 MiB kept: freed
  CHECK(fake_driver::g_calls.back() == "free");
  memory.free_device(p);
}

TEST_CASE("cuda memory: pinned blocks given back are kept and lent again, up to 64 MiB") {
  gpu::CudaMemory memory(fake_driver::table());
  fake_driver::g_calls.clear();
  void* p = memory.allocate_pinned(4096);
  memory.free_pinned(p);
  CHECK(memory.allocate_pinned(4096) == p);  // the same block, not pinned again
  void* q = memory.allocate_pinned(8192);
  CHECK(fake_driver::g_calls == std::vector<std::string>{"host alloc 4096", "host alloc 8192"});
  memory.free_pinned(q);
  memory.free_pinned(p);
  fake_driver::g_calls.clear();
  void* big1 = memory.allocate_pinned(size_t(40) << 20);
  void* big2 = memory.allocate_pinned(size_t(40) << 20);
  memory.free_pinned(big1);
  memory.free_pinned(big2);  // would pass 64 MiB kept: freed
  CHECK(fake_driver::g_calls.back() == "free host");
  CHECK(std::count(fake_driver::g_calls.begin(), fake_driver::g_calls.end(), "free host") == 1);
}

TEST_CASE("cuda memory: a thread that may not wait for the device puts its frees off") {
  gpu::CudaMemory memory(fake_driver::table());
  void* big1 = memory.allocate_device(size_t(40) << 20);
  void* big2 = memory.allocate_device(size_t(40) << 20);
  void* pinned1 = memory.allocate_pinned(size_t(40) << 20);
  void* pinned2 = memory.allocate_pinned(size_t(40) << 20);
  memory.free_device(big1);  // kept
  memory.free_pinned(pinned1);
  fake_driver::g_calls.clear();
  {
    gpu::NoDeviceWaits holding_a_stream;
    memory.free_device(big2);  // the cache is full: a free, put off
    memory.free_pinned(pinned2);
    CHECK(fake_driver::g_calls.empty());
  }
  void* small = memory.allocate_device(4096);  // this thread may wait: the put-off frees run
  CHECK(fake_driver::g_calls == std::vector<std::string>{"free", "free host", "alloc 4096"});
  memory.free_device(small);
}

TEST_CASE("cuda memory: a stream waits on a word where the driver can, else says it cannot") {
  gpu::CudaMemory memory(fake_driver::table());
  uint32_t word = 0;
  int stream = 0;
  fake_driver::g_calls.clear();
  REQUIRE(memory.wait_on_stream(&stream, &word, 7).ok());
  CHECK(fake_driver::g_calls == std::vector<std::string>{"wait value 7 flags 0"});  // GEQ
  fake_driver::g_wait_value_result = 801;  // CUDA_ERROR_NOT_SUPPORTED
  Status s = memory.wait_on_stream(&stream, &word, 8);
  fake_driver::g_wait_value_result = gpu::kCuSuccess;
  CHECK(s.error_class == MPI_ERR_UNSUPPORTED_OPERATION);
  gpu::CudaDriver without = fake_driver::table();
  without.stream_wait_value32 = nullptr;  // a driver older than cuStreamWaitValue32_v2
  gpu::CudaMemory older(without);
  CHECK(older.wait_on_stream(&stream, &word, 1).error_class == MPI_ERR_UNSUPPORTED_OPERATION);
}
