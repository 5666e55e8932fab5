// Where a buffer lives and how Weft moves and reduces data that may sit in GPU memory. The rest
// of the library asks only this header; gpu/cuda_memory.cpp answers for CUDA (the driver loaded
// with dlopen at run time), and tests put in a fake.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/op/op.hpp"
#include "runtime/status.hpp"

namespace weft::gpu {

// Managed and pinned host memory count as host memory: the CPU reaches them directly.
enum class MemoryKind : unsigned char { kHost, kDevice };

// A device allocation described so that another process of the node can map it (CUDA IPC).
struct ExportedMemory {
  unsigned char handle[64] = {};  // the driver's name for the allocation
  uint64_t base = 0, size = 0;    // the allocation, at the exporter's addresses
  uint64_t buffer_id = 0;         // the driver's id of the allocation: an address reused differs
};

// A copy under way (DeviceMemory::start_copy); null when it was done at once.
using CopyStarted = void*;

// The operations Weft needs on memory the CPU cannot touch.
class DeviceMemory {
 public:
  virtual ~DeviceMemory() = default;
  // What it drives, for weft_info and messages ("CUDA driver 13.0, 1 device: NVIDIA H100").
  virtual std::string describe() = 0;
  // Whether device buffers can exist in this process: the driver initialises and sees a device
  // (this may initialise CUDA; kind_of never does).
  virtual bool usable() = 0;
  // Asked per buffer, never answered from a cache of host ranges: memory freed and allocated
  // again on the device must not be taken for host memory.
  virtual MemoryKind kind_of(const void* p) = 0;
  // The device a device buffer is on (its CUDA ordinal), for registering it with a network
  // (pt2pt/ofi_hmem.hpp); 0 where unknown.
  virtual int device_of(const void*) { return 0; }
  // Copies `bytes` between any two kinds of memory; done when it returns.
  virtual Status copy(void* dst, const void* src, size_t bytes) = 0;
  // Starts the same copy on Weft's stream and gives through *started what wait_copy waits for;
  // copies so started complete in the order they were started. Neither buffer may be touched
  // until then. (This default copies at once.)
  virtual Status start_copy(void* dst, const void* src, size_t bytes, CopyStarted* started) {
    *started = nullptr;
    return copy(dst, src, bytes);
  }
  // Waits until the copy `started` names (and those before it) is done, and forgets it; every
  // started copy is waited for once, whatever the outcome.
  virtual Status wait_copy(CopyStarted /*started*/) { return Status::success(); }
  // Device memory (for a collective's scratch) and pinned host memory (for staging); nullptr
  // when none can be had.
  virtual void* allocate_device(size_t bytes) = 0;
  virtual void free_device(void* p) = 0;
  virtual void* allocate_pinned(size_t bytes) = 0;
  virtual void free_pinned(void* p) = 0;
  // Whether reduce() can run `r` on the device (predefined ops on types with a device kernel).
  virtual bool can_reduce(const Reduction& r) const = 0;
  // inout[i] = in[i] op inout[i] for n elements, both in device memory; done when it returns.
  virtual Status reduce(const Reduction& r, const void* in, void* inout, size_t n) = 0;
  // Waits for the work queued so far on an application's stream (a cudaStream_t).
  virtual Status synchronize(void* stream) = 0;
  // Queues a copy on an application's stream, after the work queued there so far, and returns.
  virtual Status copy_on_stream(void* /*stream*/, void* /*dst*/, const void* /*src*/,
                                size_t /*bytes*/) {
    return Status::error(MPI_ERR_OTHER, "this device memory has no application streams");
  }
  // Queues fn(data) on an application's stream: a thread of the driver runs it once the
  // stream's earlier work is done, and the stream's later work waits until it returns. `fn`
  // must make no CUDA call.
  virtual Status call_on_stream(void* /*stream*/, void (* /*fn*/)(void*), void* /*data*/) {
    return Status::error(MPI_ERR_OTHER, "this device memory has no application streams");
  }
  // Queues on an application's stream a wait until the 32-bit word at `word` (pinned host
  // memory from allocate_pinned) reaches `value` in cyclic order ((int32_t)(*word - value) >= 0):
  // the stream's later work waits without holding any thread. MPI_ERR_UNSUPPORTED_OPERATION
  // where the driver or device cannot.
  virtual Status wait_on_stream(void* /*stream*/, const uint32_t* /*word*/, uint32_t /*value*/) {
    return Status::error(MPI_ERR_UNSUPPORTED_OPERATION, "no stream memory waits here");
  }
  // Describes the allocation that holds device buffer `p` for another process of the node;
  // false where it cannot be shared (memory of a stream-ordered pool, say).
  virtual bool export_memory(const void* /*p*/, ExportedMemory* /*out*/) { return false; }
  // Maps an allocation another process exported and returns its base here; nullptr, with the
  // reason in *why, where it cannot (no peer access between the two devices, say).
  virtual void* open_exported(const ExportedMemory& /*m*/, std::string* why) {
    *why = "this device memory cannot be shared between processes";
    return nullptr;
  }
  // Unmaps what open_exported returned.
  virtual void close_exported(void* /*here*/) {}
};

// While one lives on a thread, the process's device memory makes no call there that waits for
// the whole device (cuMemFree, cuMemFreeHost): such frees are put off until a thread without one
// frees or allocates. For the threads of runtime/streams/, whose work holds an application's
// stream with a host function, where a wait for the device would wait for itself.
class NoDeviceWaits {
 public:
  NoDeviceWaits() { ++depth_; }
  ~NoDeviceWaits() { --depth_; }
  NoDeviceWaits(const NoDeviceWaits&) = delete;
  NoDeviceWaits& operator=(const NoDeviceWaits&) = delete;
  static bool here() { return depth_ > 0; }

 private:
  static thread_local int depth_;
};

// Looks for CUDA once (MPI_Init, weft_info); `enabled` false (WEFT_CUDA=0) skips the search.
// Returns why none is used, or "" when CUDA is.
const std::string& find_device_memory(bool enabled);
// The process's: null when no GPU memory can exist (no driver, WEFT_CUDA=0, or not looked for
// yet). Where the driver is there but the application has not started CUDA, every buffer is
// host memory to it.
DeviceMemory* device_memory();
// Puts `memory` in place of the process's (tests); nullptr goes back to what was found.
void set_device_memory(DeviceMemory* memory);

// device_memory() where device buffers can exist (DeviceMemory::usable), else null.
inline DeviceMemory* usable_device_memory() {
  DeviceMemory* m = device_memory();
  return m != nullptr && m->usable() ? m : nullptr;
}

inline bool on_device(const void* p) {
  DeviceMemory* m = device_memory();
  return m != nullptr && p != nullptr && m->kind_of(p) == MemoryKind::kDevice;
}

}  // namespace weft::gpu
