// The calls that take host memory only (MPI-IO, partitioned communication, MPI_Win_attach): a
// CUDA device buffer there gets a clear error rather than a fault in the CPU's copy.
#pragma once
#include <cstdio>
#include <string>

#include "gpu/memory.hpp"
#include "mpi.h"
#include "runtime/status.hpp"

namespace weft::capi {

// MPI_ERR_BUFFER (MPI_ERR_BASE for window memory) when `buf` is device memory.
inline Status check_host_buffer(const void* buf, const char* arg, const char* calls,
                                int error_class = MPI_ERR_BUFFER) {
  if (!gpu::on_device(buf)) return Status::success();
  char text[32];
  std::snprintf(text, sizeof text, "%p", buf);
  return Status::error(error_class, std::string("invalid ") + arg + "=" + text +
                                        ": it is CUDA device memory, and " + calls +
                                        " take host memory only (pinned and managed memory are "
                                        "host memory)");
}

}  // namespace weft::capi
