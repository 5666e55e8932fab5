// process_vm_readv/writev loops (pt2pt/shm/cross_memory.hpp).
#include "pt2pt/shm/cross_memory.hpp"

#include <sys/uio.h>

#include <cerrno>

namespace weft::shm {

bool cross_memory_copy(pid_t peer, bool read, uint64_t local, uint64_t remote, uint64_t bytes) {
  while (bytes > 0) {
    iovec here{reinterpret_cast<void*>(local), bytes};
    iovec there{reinterpret_cast<void*>(remote), bytes};
    const ssize_t n = read ? process_vm_readv(peer, &here, 1, &there, 1, 0)
                           : process_vm_writev(peer, &here, 1, &there, 1, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    local += uint64_t(n);
    remote += uint64_t(n);
    bytes -= uint64_t(n);
  }
  return true;
}

}  // namespace weft::shm
