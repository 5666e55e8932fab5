// Transport over the UCX tag-matching API (ucp_tag_*), with UCX's wakeup fd for blocking waits.
#pragma once
#include <memory>

#include "gpu/staging.hpp"
#include "pt2pt/transport.hpp"

namespace weft {

struct UcxOptions {
  int world_size = 1;
  int local_size = 1;
  bool multi_threaded = false;  // MPI_THREAD_SERIALIZED: calls may come from several threads
  bool oversubscribed = false;  // more ranks on this node than cores
  // Without CUDA in UCX: device buffers fed to UCX's fragments through a staging pipeline
  // (pt2pt/ucx_device_memory.hpp) rather than staged whole by pt2pt; its chunks.
  bool pack_device_memory = true;
  gpu::StagingShape staging;
};

Status make_ucx_transport(const UcxOptions& options, std::unique_ptr<Transport>* out);

}  // namespace weft
