// Copying between this process and another one of the node without going through the kernel
// twice: process_vm_readv/writev, retried until every byte has moved.
#pragma once
#include <sys/types.h>

#include <cstdint>

namespace weft::shm {

// Moves `bytes` from `remote` in process `peer` to `local` here (`read`), or from `local` to
// `remote` (write); false if the kernel refuses or the memory is not mapped.
bool cross_memory_copy(pid_t peer, bool read, uint64_t local, uint64_t remote, uint64_t bytes);

}  // namespace weft::shm
