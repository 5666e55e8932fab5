// Which transports a rank uses: the network transport (UCX or libfabric, by WEFT_TRANSPORT and
// the rule of man/weft.7), and the node's shared-memory transport for the ranks of its node
// (unless WEFT_SHM=0 or the node cannot have it), in two steps around the start-up fence.
#pragma once
#include <memory>
#include <string>

#include "gpu/staging.hpp"
#include "pt2pt/transport.hpp"
#include "runtime/kvs.hpp"

namespace weft {
namespace shm {
class ShmTransport;  // pt2pt/shm/shm_transport.hpp
}

struct TransportChoice {
  std::string transport;  // "ucx" or "ofi"
  std::string provider;   // the libfabric provider (ofi only)
  std::string why;        // the rule or setting that chose it
};

// The staging pipelines' chunks (gpu/staging.hpp): WEFT_GPU_STAGING_CHUNK and _DEPTH, within the
// bounds their documentation gives.
gpu::StagingShape staging_shape();
// WEFT_GPU_IPC: device messages between ranks of a node through CUDA IPC (else host memory).
bool gpu_ipc_wanted();
// WEFT_GPU_UCX_PACK: device buffers fed to a UCX without CUDA through a staging pipeline.
bool gpu_ucx_pack_wanted();

// The network transport WEFT_TRANSPORT and WEFT_OFI_PROVIDER ask for, or the rule picks.
Status choose_transport(TransportChoice* out);

// Before the start-up fence: the network transport, and on the node's first rank the node
// segment.
Status start_transports(const JobInfo& job, bool oversubscribed, std::unique_ptr<Transport>* net);
// After the fence: the transport the rank uses, made of `net` and, where the node has it, the
// shared-memory transport (*node then points at it inside *out; else nullptr).
Status finish_transports(const JobInfo& job, bool oversubscribed, std::unique_ptr<Transport> net,
                         std::unique_ptr<Transport>* out, shm::ShmTransport** node);

}  // namespace weft
