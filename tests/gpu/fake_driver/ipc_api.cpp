// The fake driver's CUDA IPC: a handle names a device allocation's memfd in its owner process,
// which another process opens through /proc/<pid>/fd and maps guarded, like its own allocations.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "fake_driver.hpp"
#include "memory_table.hpp"

using namespace fake_cuda;

namespace {

constexpr uint64_t kHandleMagic = 0x5746414b45495043;  // "WFAKEIPC"
constexpr unsigned kIpcMemLazyEnablePeerAccess = 1;    // CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS

// What the 64 bytes of a CUipcMemHandle hold here.
struct HandleContents {
  uint64_t magic;
  int64_t owner_pid;
  int64_t owner_fd;  // the memfd's number in the owner process
  uint64_t size;
  uint64_t owner_buffer_id;
};

}  // namespace

// CUipcMemHandle: passed by value, as cuda.h declares it.
struct IpcMemHandle {
  unsigned char bytes[kIpcHandleBytes];
};
static_assert(sizeof(HandleContents) <= sizeof(IpcMemHandle));

namespace {

// Opens the memfd a handle names and checks it is the allocation the handle was made for (its
// owner may have freed it and the number may now name another file): -1 when not.
int open_owner_memfd(const HandleContents& h) {
  const std::string path =
      "/proc/" + std::to_string(h.owner_pid) + "/fd/" + std::to_string(h.owner_fd);
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return -1;
  char target[256] = "";
  const std::string self = "/proc/self/fd/" + std::to_string(fd);
  const ssize_t length = readlink(self.c_str(), target, sizeof target - 1);
  const std::string expected = "/memfd:" + memfd_name(pid_t(h.owner_pid), h.owner_buffer_id);
  const std::string got(target, length > 0 ? size_t(length) : 0);
  struct stat st {};
  const bool same = got.compare(0, expected.size(), expected) == 0 &&
                    (got.size() == expected.size() || got[expected.size()] == ' ') &&
                    fstat(fd, &st) == 0 && uint64_t(st.st_size) >= h.size;
  if (!same) {
    close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

FAKE_CUDA_API CuResult cuIpcGetMemHandle(IpcMemHandle* handle, CuDevicePtr p) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  if (handle == nullptr) return kErrorInvalidValue;
  const std::optional<Range> range = memory().find(p);
  if (!range || range->kind != RangeKind::kDevice) return kErrorInvalidValue;
  const HandleContents contents{.magic = kHandleMagic,
                                .owner_pid = getpid(),
                                .owner_fd = range->fd,
                                .size = range->size,
                                .owner_buffer_id = range->buffer_id};
  std::memset(handle, 0, sizeof *handle);
  std::memcpy(handle->bytes, &contents, sizeof contents);
  return kSuccess;
}

FAKE_CUDA_API CuResult cuIpcOpenMemHandle_v2(CuDevicePtr* p, IpcMemHandle handle, unsigned flags) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  if (p == nullptr || (flags & ~kIpcMemLazyEnablePeerAccess) != 0) return kErrorInvalidValue;
  HandleContents h;
  std::memcpy(&h, handle.bytes, sizeof h);
  if (h.magic != kHandleMagic || h.size == 0) return kErrorInvalidValue;
  if (h.owner_pid == getpid()) return kErrorInvalidContext;  // the real driver refuses it too
  // Two GPUs without peer access, as a test asks (WEFT_FAKE_CUDA_NO_PEER_ACCESS=1).
  if (const char* no_peer = std::getenv("WEFT_FAKE_CUDA_NO_PEER_ACCESS");
      no_peer != nullptr && std::strcmp(no_peer, "1") == 0)
    return kErrorPeerAccessUnsupported;
  return memory().import(
      pid_t(h.owner_pid), h.owner_buffer_id, size_t(h.size), [&h] { return open_owner_memfd(h); },
      p);
}

FAKE_CUDA_API CuResult cuIpcCloseMemHandle(CuDevicePtr p) {
  if (const CuResult e = require_context(); e != kSuccess) return e;
  return memory().remove(p, {RangeKind::kImported});
}
