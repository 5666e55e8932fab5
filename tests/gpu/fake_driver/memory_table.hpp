// The fake driver's memory: every range it handed out (device, pool, managed, pinned, opened by
// IPC), how device ranges are backed (a memfd mapped PROT_NONE where the caller sees it and
// read-write at a private alias), and copies that go through the aliases. Thread-safe.
#pragma once
#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "fake_driver.hpp"

namespace fake_cuda {

enum class RangeKind {
  kDevice,    // cuMemAlloc: guarded, exportable by IPC
  kPool,      // cuMemAllocAsync: guarded, not exportable
  kImported,  // cuIpcOpenMemHandle: guarded, another process's allocation
  kManaged,   // cuMemAllocManaged: plain read-write host memory that CUDA calls device memory
  kPinned,    // cuMemHostAlloc: plain read-write host memory
};

// Whether the CPU must not touch a range of that kind (it lives on the "device").
inline bool guarded(RangeKind kind) {
  return kind == RangeKind::kDevice || kind == RangeKind::kPool || kind == RangeKind::kImported;
}

struct Range {
  RangeKind kind;
  CuDevicePtr start;               // the address the caller was given
  size_t size;                     // the bytes asked for
  size_t mapped;                   // the bytes mapped: size rounded up to whole pages
  unsigned char* alias = nullptr;  // where the fake reads and writes a guarded range
  int fd = -1;                     // the memfd behind a guarded range (kDevice, kPool only)
  unsigned long long buffer_id;    // unique in this process, never reused
  // Of an imported range: which process's allocation it maps, and how often it is open.
  pid_t owner_pid = 0;
  unsigned long long owner_buffer_id = 0;
  int opens = 0;
};

class MemoryTable {
 public:
  // A new guarded range of kDevice or kPool kind backed by a fresh memfd.
  CuResult add_device(RangeKind kind, size_t bytes, CuDevicePtr* out);
  // A new plain read-write range of kManaged or kPinned kind.
  CuResult add_host(RangeKind kind, size_t bytes, void** out);
  // Counts one more open of the kImported range mapping buffer `owner_buffer_id` of process
  // `owner_pid`, or maps the memfd `open_owner_fd` returns (-1: it cannot be had) as a new one.
  CuResult import(pid_t owner_pid, unsigned long long owner_buffer_id, size_t bytes,
                  const std::function<int()>& open_owner_fd, CuDevicePtr* out);
  // Unmaps the range starting at `start` if its kind is one of `kinds` (a kImported range only
  // when its last open is closed); kErrorInvalidValue when there is no such range.
  CuResult remove(CuDevicePtr start, std::initializer_list<RangeKind> kinds);
  // The range containing `address`, if the fake handed one out.
  std::optional<Range> find(CuDevicePtr address);
  // memmove between any two addresses, guarded ones through their aliases; kErrorInvalidValue
  // when a guarded range is overrun.
  CuResult copy(CuDevicePtr dst, CuDevicePtr src, size_t bytes);
  // memset through the alias; kErrorInvalidValue unless [address, address+bytes) lies in a
  // range the fake handed out.
  CuResult set(CuDevicePtr address, unsigned char value, size_t bytes);
  // Where the CPU may touch [address, address+bytes) (reachable), for what a kernel would do.
  unsigned char* host_view(CuDevicePtr address, size_t bytes);

 private:
  // The range containing `address`, or nullptr; the caller holds mutex_.
  Range* locate(CuDevicePtr address);
  // Where the CPU may touch [address, address+bytes): the alias for a guarded range, the
  // address itself for any other memory; nullptr when a guarded range is overrun.
  unsigned char* reachable(CuDevicePtr address, size_t bytes);
  // Maps `fd` twice, as a guarded range of `kind`, and records it; the caller holds mutex_.
  CuResult map_guarded(RangeKind kind, int fd, size_t bytes, Range** out);

  std::mutex mutex_;
  std::map<CuDevicePtr, Range> ranges_;  // by start address
  unsigned long long next_buffer_id_ = 1;
};

// The process's table.
MemoryTable& memory();
// The name of the memfd behind buffer `buffer_id` of process `pid`, which IPC checks.
std::string memfd_name(pid_t pid, unsigned long long buffer_id);

}  // namespace fake_cuda
