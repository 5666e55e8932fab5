// A stand-in for GPU memory in tests: "device" memory is an arena mapped PROT_NONE, opened only
// while this fake copies or reduces, so any direct touch of a device buffer by the library
// faults and fails the test. Pinned memory is plain host memory. Single-threaded use only.
#pragma once
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "gpu/memory.hpp"

namespace weft::test {

class GuardedDeviceMemory final : public gpu::DeviceMemory {
 public:
  explicit GuardedDeviceMemory(bool device_kernels, size_t arena_bytes = size_t(256) << 20)
      : device_kernels_(device_kernels), size_(arena_bytes) {
    base_ = static_cast<unsigned char*>(
        mmap(nullptr, size_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
  }
  ~GuardedDeviceMemory() override { munmap(base_, size_); }

  std::string describe() override { return "guarded stand-in for device memory"; }
  bool usable() override { return true; }
  gpu::MemoryKind kind_of(const void* p) override {
    const auto* b = static_cast<const unsigned char*>(p);
    return b >= base_ && b < base_ + size_ ? gpu::MemoryKind::kDevice : gpu::MemoryKind::kHost;
  }
  Status copy(void* dst, const void* src, size_t bytes) override {
    ++copies;
    open();
    std::memmove(dst, src, bytes);
    close();
    return Status::success();
  }
  void* allocate_device(size_t bytes) override {
    const size_t at = (used_ + 63) / 64 * 64;
    if (at + bytes > size_) return nullptr;
    used_ = at + bytes;
    return base_ + at;
  }
  void free_device(void*) override {}  // the arena is dropped whole (reset)
  void* allocate_pinned(size_t bytes) override { return std::malloc(bytes == 0 ? 1 : bytes); }
  void free_pinned(void* p) override { std::free(p); }
  bool can_reduce(const Reduction& r) const override { return device_kernels_ && r.kernel; }
  Status synchronize(void*) override { return Status::success(); }
  Status reduce(const Reduction& r, const void* in, void* inout, size_t n) override {
    ++reductions;
    open();
    r.kernel(in, inout, n);
    close();
    return Status::success();
  }

  // Copies host bytes into a fresh device allocation.
  unsigned char* upload(const void* host, size_t bytes) {
    auto* d = static_cast<unsigned char*>(allocate_device(bytes));
    if (d != nullptr && bytes > 0) (void)copy(d, host, bytes);  // the fake's copies cannot fail
    return d;
  }
  // Copies device bytes back to the host.
  void download(void* host, const void* device, size_t bytes) { (void)copy(host, device, bytes); }
  void reset() { used_ = 0; }

  int copies = 0, reductions = 0;

 private:
  void open() { mprotect(base_, size_, PROT_READ | PROT_WRITE); }
  void close() { mprotect(base_, size_, PROT_NONE); }

  bool device_kernels_;
  unsigned char* base_ = nullptr;
  size_t size_, used_ = 0;
};

}  // namespace weft::test
