// The fake driver's table of memory ranges: memfd-backed guarded ranges with their read-write
// aliases, plain host ranges, and copies and fills that translate guarded addresses.
#include "memory_table.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <string>

namespace fake_cuda {
namespace {

size_t whole_pages(size_t bytes) {
  static const size_t page = size_t(sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

CuDevicePtr as_address(const void* p) { return CuDevicePtr(reinterpret_cast<uintptr_t>(p)); }
void* as_pointer(CuDevicePtr address) { return reinterpret_cast<void*>(uintptr_t(address)); }

}  // namespace

MemoryTable& memory() {
  static MemoryTable table;
  return table;
}

std::string memfd_name(pid_t pid, unsigned long long buffer_id) {
  return "weft-fake-cuda:" + std::to_string(pid) + ":" + std::to_string(buffer_id);
}

CuResult MemoryTable::map_guarded(RangeKind kind, int fd, size_t bytes, Range** out) {
  const size_t mapped = whole_pages(bytes);
  void* guard = mmap(nullptr, mapped, PROT_NONE, MAP_SHARED, fd, 0);
  if (guard == MAP_FAILED) return kErrorOutOfMemory;
  void* alias = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (alias == MAP_FAILED) {
    munmap(guard, mapped);
    return kErrorOutOfMemory;
  }
  Range range{.kind = kind,
              .start = as_address(guard),
              .size = bytes,
              .mapped = mapped,
              .alias = static_cast<unsigned char*>(alias),
              .buffer_id = next_buffer_id_++};
  *out = &ranges_.insert_or_assign(range.start, range).first->second;
  return kSuccess;
}

CuResult MemoryTable::add_device(RangeKind kind, size_t bytes, CuDevicePtr* out) {
  std::lock_guard<std::mutex> lock(mutex_);
  const int fd = memfd_create(memfd_name(getpid(), next_buffer_id_).c_str(), MFD_CLOEXEC);
  if (fd < 0) return kErrorOutOfMemory;
  Range* range = nullptr;
  const CuResult e = ftruncate(fd, off_t(whole_pages(bytes))) == 0
                         ? map_guarded(kind, fd, bytes, &range)
                         : kErrorOutOfMemory;
  if (e != kSuccess) {
    close(fd);
    return e;
  }
  range->fd = fd;  // kept open while the allocation lives: IPC handles name it
  *out = range->start;
  return kSuccess;
}

CuResult MemoryTable::add_host(RangeKind kind, size_t bytes, void** out) {
  std::lock_guard<std::mutex> lock(mutex_);
  const size_t mapped = whole_pages(bytes);
  void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return kErrorOutOfMemory;
  Range range{.kind = kind,
              .start = as_address(p),
              .size = bytes,
              .mapped = mapped,
              .alias = static_cast<unsigned char*>(p),
              .buffer_id = next_buffer_id_++};
  ranges_.insert_or_assign(range.start, range);
  *out = p;
  return kSuccess;
}

CuResult MemoryTable::import(pid_t owner_pid, unsigned long long owner_buffer_id, size_t bytes,
                             const std::function<int()>& open_owner_fd, CuDevicePtr* out) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [start, range] : ranges_) {
    if (range.kind == RangeKind::kImported && range.owner_pid == owner_pid &&
        range.owner_buffer_id == owner_buffer_id) {
      ++range.opens;
      *out = start;
      return kSuccess;
    }
  }
  const int fd = open_owner_fd();
  if (fd < 0) return kErrorInvalidHandle;
  Range* range = nullptr;
  const CuResult e = map_guarded(RangeKind::kImported, fd, bytes, &range);
  close(fd);  // the mappings keep the memory alive, even after the owner frees it
  if (e != kSuccess) return kErrorMapFailed;
  range->owner_pid = owner_pid;
  range->owner_buffer_id = owner_buffer_id;
  range->opens = 1;
  *out = range->start;
  return kSuccess;
}

CuResult MemoryTable::remove(CuDevicePtr start, std::initializer_list<RangeKind> kinds) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = ranges_.find(start);
  if (it == ranges_.end()) return kErrorInvalidValue;
  Range& range = it->second;
  bool allowed = false;
  for (RangeKind kind : kinds) allowed = allowed || kind == range.kind;
  if (!allowed) return kErrorInvalidValue;
  if (range.kind == RangeKind::kImported && --range.opens > 0) return kSuccess;
  munmap(as_pointer(range.start), range.mapped);
  if (guarded(range.kind)) munmap(range.alias, range.mapped);
  if (range.fd >= 0) close(range.fd);
  ranges_.erase(it);
  return kSuccess;
}

Range* MemoryTable::locate(CuDevicePtr address) {
  auto it = ranges_.upper_bound(address);
  if (it == ranges_.begin()) return nullptr;
  --it;
  return address < it->first + it->second.size ? &it->second : nullptr;
}

std::optional<Range> MemoryTable::find(CuDevicePtr address) {
  std::lock_guard<std::mutex> lock(mutex_);
  const Range* range = locate(address);
  return range != nullptr ? std::optional<Range>(*range) : std::nullopt;
}

unsigned char* MemoryTable::reachable(CuDevicePtr address, size_t bytes) {
  const Range* range = locate(address);
  if (range == nullptr || !guarded(range->kind))
    return static_cast<unsigned char*>(as_pointer(address));
  const size_t offset = address - range->start;
  return bytes <= range->size - offset ? range->alias + offset : nullptr;
}

unsigned char* MemoryTable::host_view(CuDevicePtr address, size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  return reachable(address, bytes);
}

CuResult MemoryTable::copy(CuDevicePtr dst, CuDevicePtr src, size_t bytes) {
  if (bytes == 0) return kSuccess;
  std::lock_guard<std::mutex> lock(mutex_);
  unsigned char* to = reachable(dst, bytes);
  const unsigned char* from = reachable(src, bytes);
  if (to == nullptr || from == nullptr) return kErrorInvalidValue;
  std::memmove(to, from, bytes);
  return kSuccess;
}

CuResult MemoryTable::set(CuDevicePtr address, unsigned char value, size_t bytes) {
  if (bytes == 0) return kSuccess;
  std::lock_guard<std::mutex> lock(mutex_);
  const Range* range = locate(address);
  if (range == nullptr || bytes > range->size - (address - range->start)) return kErrorInvalidValue;
  std::memset(range->alias + (address - range->start), value, bytes);
  return kSuccess;
}

}  // namespace fake_cuda
