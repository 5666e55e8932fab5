// CudaMemory: the driver calls behind DeviceMemory, on the primary context and one stream.
#include "gpu/cuda_memory.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#ifdef WEFT_HAVE_CUDA
#include "gpu/device_reduce.hpp"
#endif

namespace weft::gpu {
namespace {

CuDevicePtr address(const void* p) { return CuDevicePtr(reinterpret_cast<uintptr_t>(p)); }

}  // namespace

CudaMemory::CudaMemory(const CudaDriver& driver) : driver_(driver) {}

bool CudaMemory::usable() {
  std::call_once(start_once_, [this] { start_cuda_driver(driver_, &devices_, &start_error_); });
  return devices_ > 0;
}

std::string CudaMemory::describe() {
  int version = 0;
  driver_.driver_get_version(&version);
  const std::string driver =
      "CUDA driver " + std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
  if (!usable()) return driver + ", not usable: " + start_error_;
  char name[256] = "";
  driver_.device_get_name(name, int(sizeof name), 0);
  return driver + ", " + std::to_string(devices_) +
         (devices_ == 1 ? " device: " : " devices, the first: ") + name;
}

bool CudaMemory::cuda_in_use() {
  if (in_use_) return true;
  CuContext current = nullptr;
  const CuResult e = driver_.ctx_get_current(&current);
  if (e == kCuErrorNotInitialized || !usable()) return false;  // nobody has started CUDA
  for (int dev = 0; dev < devices_; ++dev) {
    unsigned flags = 0;
    int active = 0;
    if (driver_.primary_ctx_get_state(dev, &flags, &active) == kCuSuccess && active != 0) {
      in_use_ = true;  // once in use, always looked up: contexts are not torn down under us
      return true;
    }
  }
  if (e == kCuSuccess && current != nullptr) in_use_ = true;
  return in_use_;
}

MemoryKind CudaMemory::kind_of(const void* p) {
  if (!cuda_in_use()) return MemoryKind::kHost;
  unsigned memory_type = 0;
  unsigned long long is_managed = 0;  // the driver writes a bool; the rest stays zero
  int attributes[] = {kCuPointerAttributeMemoryType, kCuPointerAttributeIsManaged};
  void* data[] = {&memory_type, &is_managed};
  if (driver_.pointer_get_attributes(2, attributes, data, address(p)) != kCuSuccess)
    return MemoryKind::kHost;  // not memory CUDA knows
  return memory_type == kCuMemoryTypeDevice && is_managed == 0 ? MemoryKind::kDevice
                                                               : MemoryKind::kHost;
}

int CudaMemory::device_of(const void* p) {
  int ordinal = 0;
  int attribute[] = {kCuPointerAttributeDeviceOrdinal};
  void* data[] = {&ordinal};
  return driver_.pointer_get_attributes(1, attribute, data, address(p)) == kCuSuccess ? ordinal
                                                                                      : 0;
}

Status CudaMemory::failed(const char* what, CuResult error) const {
  return Status::error(MPI_ERR_OTHER,
                       std::string(what) + " failed: " + cuda_error_text(driver_, error));
}

Status CudaMemory::enter(CuStream* stream, CuContext* context) {
  CuContext current = nullptr;
  std::lock_guard<std::mutex> lock(enter_mutex_);
  if (driver_.ctx_get_current(&current) != kCuSuccess || current == nullptr) {
    if (primary_ == nullptr) {
      const CuResult e = driver_.primary_ctx_retain(&primary_, 0);
      if (e != kCuSuccess) return failed("cuDevicePrimaryCtxRetain", e);
    }
    const CuResult e = driver_.ctx_set_current(primary_);
    if (e != kCuSuccess) return failed("cuCtxSetCurrent", e);
    current = primary_;
  }
  if (context != nullptr) *context = current;
  if (stream == nullptr) return Status::success();
  for (const auto& [made_in, s] : streams_) {
    if (made_in == current) {
      *stream = s;
      return Status::success();
    }
  }
  // A blocking stream: its work waits for the work the application issued before on the legacy
  // default stream, such as the DMA of a cudaMemcpy from pageable memory that returned before
  // reaching the device. (A non-blocking stream read stale device data on the H100 machine.)
  // One per context: a stream belongs to the context it was made in.
  const CuResult e = driver_.stream_create(stream, kCuStreamDefault);
  if (e != kCuSuccess) return failed("cuStreamCreate", e);
  streams_.emplace_back(current, *stream);
  return Status::success();
}

Status CudaMemory::copy(void* dst, const void* src, size_t bytes) {
  if (bytes == 0 || dst == src) return Status::success();
  CuStream stream = nullptr;
  WEFT_TRY(enter(&stream));
  CuResult e = driver_.memcpy_async(address(dst), address(src), bytes, stream);
  if (e == kCuSuccess) e = driver_.stream_synchronize(stream);
  return e == kCuSuccess ? Status::success() : failed("cuMemcpyAsync", e);
}

CudaMemory::CopyEvent* CudaMemory::take_event(CuContext context) {
  {
    std::lock_guard<std::mutex> lock(events_mutex_);
    for (size_t i = 0; i < spare_events_.size(); ++i) {
      if (spare_events_[i]->context != context) continue;
      CopyEvent* mark = spare_events_[i];
      spare_events_.erase(spare_events_.begin() + ptrdiff_t(i));
      return mark;
    }
  }
  CuEvent event = nullptr;
  if (driver_.event_create(&event, kCuEventDisableTiming) != kCuSuccess) return nullptr;
  return new CopyEvent{context, event};
}

void CudaMemory::keep_event(CopyEvent* mark) {
  std::lock_guard<std::mutex> lock(events_mutex_);
  spare_events_.push_back(mark);
}

Status CudaMemory::start_copy(void* dst, const void* src, size_t bytes, CopyStarted* started) {
  *started = nullptr;
  if (bytes == 0 || dst == src) return Status::success();
  CuStream stream = nullptr;
  CuContext context = nullptr;
  WEFT_TRY(enter(&stream, &context));
  CopyEvent* mark = take_event(context);
  if (mark == nullptr) return copy(dst, src, bytes);  // no event to wait on: copied at once
  CuResult e = driver_.memcpy_async(address(dst), address(src), bytes, stream);
  if (e != kCuSuccess) {
    keep_event(mark);
    return failed("cuMemcpyAsync", e);
  }
  e = driver_.event_record(mark->event, stream);
  if (e != kCuSuccess) {
    keep_event(mark);
    driver_.stream_synchronize(stream);  // the copy is under way: done before the buffers go
    return failed("cuEventRecord", e);
  }
  *started = mark;
  return Status::success();
}

Status CudaMemory::wait_copy(CopyStarted started) {
  if (started == nullptr) return Status::success();
  auto* mark = static_cast<CopyEvent*>(started);
  const Status entered = enter();
  const CuResult e = driver_.event_synchronize(mark->event);
  keep_event(mark);
  if (!entered.ok()) return entered;
  return e == kCuSuccess ? Status::success() : failed("cuEventSynchronize", e);
}

void* CudaMemory::allocate_device(size_t bytes) {
  bytes = bytes == 0 ? 1 : bytes;
  if (void* kept = device_.take(bytes); kept != nullptr) return kept;
  release_put_off();
  CuDevicePtr p = 0;
  if (!enter().ok() || driver_.mem_alloc(&p, bytes) != kCuSuccess) return nullptr;
  device_.lend(reinterpret_cast<void*>(uintptr_t(p)), bytes);
  return reinterpret_cast<void*>(uintptr_t(p));
}

// Weft's device work is done when its calls return, so a block given back is idle.
void CudaMemory::free_device(void* p) {
  if (p != nullptr && !device_.give_back(p)) release(p, false);
}

void CudaMemory::release(void* p, bool pinned) {
  {
    std::lock_guard<std::mutex> g(put_off_mutex_);
    put_off_.emplace_back(p, pinned);
  }
  release_put_off();
}

void CudaMemory::release_put_off() {
  if (NoDeviceWaits::here()) return;
  std::vector<std::pair<void*, bool>> blocks;
  {
    std::lock_guard<std::mutex> g(put_off_mutex_);
    if (put_off_.empty()) return;
    blocks.swap(put_off_);
  }
  if (!enter().ok()) return;
  for (const auto& [p, pinned] : blocks) {
    if (pinned)
      driver_.mem_free_host(p);
    else
      driver_.mem_free(address(p));
  }
}

void* CudaMemory::allocate_pinned(size_t bytes) {
  bytes = bytes == 0 ? 1 : bytes;
  if (void* kept = pinned_.take(bytes); kept != nullptr) return kept;
  release_put_off();
  void* p = nullptr;
  if (!enter().ok() || driver_.mem_host_alloc(&p, bytes, 0) != kCuSuccess) return nullptr;
  pinned_.lend(p, bytes);
  return p;
}

void CudaMemory::free_pinned(void* p) {
  if (p != nullptr && !pinned_.give_back(p)) release(p, true);
}

bool CudaMemory::can_reduce(const Reduction& r) const {
#ifdef WEFT_HAVE_CUDA
  return r.kernel != nullptr && !kernels_failed_.load(std::memory_order_relaxed) &&
         device_reduce_launcher(r.op, r.datatype) != nullptr;
#else
  (void)r;
  return false;
#endif
}

Status CudaMemory::reduce_on_host(const Reduction& r, const void* in, void* inout, size_t n) {
  const size_t bytes = n * r.elem_size;
  std::vector<unsigned char> host_in(bytes), host_inout(bytes);
  WEFT_TRY(copy(host_in.data(), in, bytes));
  WEFT_TRY(copy(host_inout.data(), inout, bytes));
  r.apply(host_in.data(), host_inout.data(), n);
  return copy(inout, host_inout.data(), bytes);
}

Status CudaMemory::reduce(const Reduction& r, const void* in, void* inout, size_t n) {
#ifdef WEFT_HAVE_CUDA
  if (kernels_failed_.load(std::memory_order_relaxed)) return reduce_on_host(r, in, inout, n);
  const DeviceReduceLaunch launch = device_reduce_launcher(r.op, r.datatype);
  if (launch == nullptr)
    return Status::error(MPI_ERR_INTERN, "no device kernel for this reduction");
  CuStream stream = nullptr;
  WEFT_TRY(enter(&stream));
  if (n == 0) return Status::success();
  const int launched = launch(in, inout, n, stream);
  if (launched != 0) {
    // The kernels cannot run in this process (built for other GPU architectures, or a driver
    // the CUDA runtime cannot use): say so once and reduce on the host from now on.
    if (!kernels_failed_.exchange(true))
      std::fprintf(stderr,
                   "weft: warning: launching a reduction kernel failed (cudaError %d); device "
                   "data is reduced on the host\n",
                   launched);
    return reduce_on_host(r, in, inout, n);
  }
  const CuResult e = driver_.stream_synchronize(stream);
  return e == kCuSuccess ? Status::success() : failed("a reduction kernel", e);
#else
  return reduce_on_host(r, in, inout, n);
#endif
}

Status CudaMemory::synchronize(void* stream) {
  WEFT_TRY(enter());
  const CuResult e = driver_.stream_synchronize(static_cast<CuStream>(stream));
  return e == kCuSuccess ? Status::success() : failed("cuStreamSynchronize", e);
}

Status CudaMemory::copy_on_stream(void* stream, void* dst, const void* src, size_t bytes) {
  if (bytes == 0) return Status::success();
  WEFT_TRY(enter());
  const CuResult e =
      driver_.memcpy_async(address(dst), address(src), bytes, static_cast<CuStream>(stream));
  return e == kCuSuccess ? Status::success() : failed("cuMemcpyAsync", e);
}

Status CudaMemory::wait_on_stream(void* stream, const uint32_t* word, uint32_t value) {
  if (driver_.stream_wait_value32 == nullptr)
    return Status::error(MPI_ERR_UNSUPPORTED_OPERATION,
                         "the CUDA driver has no cuStreamWaitValue32_v2");
  WEFT_TRY(enter());
  // Pinned memory from cuMemHostAlloc is mapped at the same address for the device (UVA).
  const CuResult e = driver_.stream_wait_value32(static_cast<CuStream>(stream), address(word),
                                                 value, kCuStreamWaitValueGeq);
  if (e == kCuSuccess) return Status::success();
  Status s = failed("cuStreamWaitValue32_v2", e);
  s.error_class = MPI_ERR_UNSUPPORTED_OPERATION;  // the caller holds the stream another way
  return s;
}

Status CudaMemory::call_on_stream(void* stream, void (*fn)(void*), void* data) {
  WEFT_TRY(enter());
  const CuResult e = driver_.launch_host_func(static_cast<CuStream>(stream), fn, data);
  return e == kCuSuccess ? Status::success() : failed("cuLaunchHostFunc", e);
}

// One driver call describes the allocation; its IPC handle is asked for once per allocation
// (the same base, size and buffer id), as a sender exports the same buffers again and again.
bool CudaMemory::export_memory(const void* p, ExportedMemory* out) {
  if (!enter().ok()) return false;
  CuDevicePtr base = 0;
  size_t size = 0;
  unsigned long long buffer_id = 0;
  int attributes[] = {kCuPointerAttributeRangeStartAddr, kCuPointerAttributeRangeSize,
                      kCuPointerAttributeBufferId};
  void* data[] = {&base, &size, &buffer_id};
  if (driver_.pointer_get_attributes(3, attributes, data, address(p)) != kCuSuccess || base == 0)
    return false;
  std::lock_guard<std::mutex> lock(exports_mutex_);
  for (size_t i = 0; i < exports_.size(); ++i) {
    const ExportedMemory& e = exports_[i];
    if (e.base != base) continue;
    if (e.size == size && e.buffer_id == buffer_id) {
      *out = e;
      return true;
    }
    exports_.erase(exports_.begin() + ptrdiff_t(i));  // freed since; the new one takes its place
    break;
  }
  CuIpcMemHandle handle;
  if (driver_.ipc_get_mem_handle(&handle, base) != kCuSuccess)
    return false;  // not an allocation IPC can share (a stream-ordered pool's, say)
  static_assert(sizeof handle.reserved == sizeof out->handle);
  std::memcpy(out->handle, handle.reserved, sizeof out->handle);
  out->base = base;
  out->size = size;
  out->buffer_id = buffer_id;
  if (exports_.size() == kKeptExports) exports_.erase(exports_.begin());  // the oldest
  exports_.push_back(*out);
  return true;
}

void* CudaMemory::open_exported(const ExportedMemory& m, std::string* why) {
  if (Status s = enter(); !s.ok()) {
    *why = s.message;
    return nullptr;
  }
  CuIpcMemHandle handle;
  std::memcpy(handle.reserved, m.handle, sizeof handle.reserved);
  CuDevicePtr here = 0;
  const CuResult e = driver_.ipc_open_mem_handle(&here, handle, kCuIpcMemLazyEnablePeerAccess);
  if (e != kCuSuccess) {
    *why = "cuIpcOpenMemHandle failed: " + cuda_error_text(driver_, e);
    return nullptr;
  }
  return reinterpret_cast<void*>(uintptr_t(here));
}

void CudaMemory::close_exported(void* here) {
  if (here != nullptr && enter().ok()) driver_.ipc_close_mem_handle(address(here));
}

DeviceMemory* find_cuda_memory(std::string* why) {
  CudaDriver driver;
  if (!open_cuda_driver(&driver, why)) return nullptr;
  why->clear();
  static CudaMemory memory(driver);  // lives as long as the process
  return &memory;
}

}  // namespace weft::gpu
