// DeviceMemory for CUDA: pointer classification with cuPointerGetAttributes, copies and
// allocations through the driver on one stream of Weft's own, reductions by gpu/'s kernels.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "gpu/block_cache.hpp"
#include "gpu/cuda_driver.hpp"
#include "gpu/memory.hpp"

namespace weft::gpu {

class CudaMemory final : public DeviceMemory {
 public:
  // `driver` is opened, not yet started (open_cuda_driver).
  explicit CudaMemory(const CudaDriver& driver);
  std::string describe() override;
  bool usable() override;
  MemoryKind kind_of(const void* p) override;
  int device_of(const void* p) override;
  Status copy(void* dst, const void* src, size_t bytes) override;
  Status start_copy(void* dst, const void* src, size_t bytes, CopyStarted* started) override;
  Status wait_copy(CopyStarted started) override;
  void* allocate_device(size_t bytes) override;
  void free_device(void* p) override;
  void* allocate_pinned(size_t bytes) override;
  void free_pinned(void* p) override;
  bool can_reduce(const Reduction& r) const override;
  Status reduce(const Reduction& r, const void* in, void* inout, size_t n) override;
  Status synchronize(void* stream) override;
  Status copy_on_stream(void* stream, void* dst, const void* src, size_t bytes) override;
  Status call_on_stream(void* stream, void (*fn)(void*), void* data) override;
  Status wait_on_stream(void* stream, const uint32_t* word, uint32_t value) override;
  bool export_memory(const void* p, ExportedMemory* out) override;
  void* open_exported(const ExportedMemory& m, std::string* why) override;
  void close_exported(void* here) override;

 private:
  // Makes a context current on the calling thread (the first device's primary context when the
  // application has none current) and, with `stream`, gives Weft's stream in that context (made
  // at its first use there: a process may drive several GPUs, a context each), with `context`
  // the context.
  Status enter(CuStream* stream = nullptr, CuContext* context = nullptr);
  // Whether the application has started using CUDA: until it has initialised the driver and a
  // primary context is active (or a context is current), no device buffer can exist, and host
  // buffers are not looked up at all. Costs one driver call per buffer until then.
  bool cuda_in_use();
  Status failed(const char* what, CuResult error) const;
  struct CopyEvent;
  // An event of `context` for marking a started copy (a spare one, or made), null where none
  // can be made; and keeping it for the next copy.
  CopyEvent* take_event(CuContext context);
  void keep_event(CopyEvent* mark);
  // Frees a block the caches did not keep, with those put off before, unless this thread may
  // not wait for the device (NoDeviceWaits): then they wait for a thread that may.
  void release(void* p, bool pinned);
  void release_put_off();
  // inout = in op inout through host copies, for when no kernel can be launched.
  Status reduce_on_host(const Reduction& r, const void* in, void* inout, size_t n);

  CudaDriver driver_;
  std::once_flag start_once_;  // cuInit and the device count, at the first need
  int devices_ = 0;
  std::string start_error_;
  bool in_use_ = false;
  std::mutex enter_mutex_;
  CuContext primary_ = nullptr;  // device 0's, for threads that have no context current
  std::vector<std::pair<CuContext, CuStream>> streams_;  // Weft's stream in each context
  // Events that marked started copies, kept for the next (an event belongs to its context).
  struct CopyEvent {
    CuContext context;
    CuEvent event;
  };
  std::mutex events_mutex_;
  std::vector<CopyEvent*> spare_events_;
  std::mutex put_off_mutex_;
  std::vector<std::pair<void*, bool>> put_off_;  // blocks to free, and whether pinned
  BlockCache pinned_{size_t(64) << 20};  // staging chunks and collectives' slots, reused
  BlockCache device_{size_t(64) << 20};  // device scratch (one-sided, NCCL staging), reused
  // The allocations export_memory described, with their IPC handles, oldest first.
  static constexpr size_t kKeptExports = 256;
  std::mutex exports_mutex_;
  std::vector<ExportedMemory> exports_;
  // The reduction kernels cannot run here (no kernel for this GPU's architecture, a driver the
  // runtime cannot use): set by the first launch that fails.
  std::atomic<bool> kernels_failed_{false};
};

// The process's CudaMemory, or null with the reason when CUDA cannot be used (no driver, no
// device, WEFT_CUDA=0); looked for once.
DeviceMemory* find_cuda_memory(std::string* why);

}  // namespace weft::gpu
