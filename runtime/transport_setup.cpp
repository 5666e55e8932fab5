// Choosing and starting the transports (runtime/transport_setup.hpp).
#include "runtime/transport_setup.hpp"

#include <algorithm>

#include "mpi.h"

#include "pt2pt/hybrid_transport.hpp"
#include "pt2pt/shm/segment_name.hpp"
#include "pt2pt/shm/shm_transport.hpp"
#include "pt2pt/ucx_transport.hpp"
#include "runtime/config.hpp"
#include "runtime/world.hpp"
#ifdef WEFT_HAVE_OFI
#include "pt2pt/ofi_provider.hpp"
#include "pt2pt/ofi_transport.hpp"
#endif

namespace weft {
namespace {

bool node_transport_wanted(const JobInfo& job) {
  return setting_long("WEFT_SHM", 1) != 0 && job.local_peers.size() > 1 && !job.nspace.empty();
}

std::string node_segment_name(const JobInfo& job) {
  return shm::segment_name(job.nspace, job.hostname);
}

#ifdef WEFT_HAVE_OFI
// The auto rule: libfabric where it drives hardware UCX does not (Slingshot, Omni-Path, EFA)
// or where WEFT_OFI_PROVIDER names a provider; UCX otherwise. libfabric is asked only on hosts
// with such a device: its first fi_getinfo costs every MPI_Init 0.3-0.8 s here.
Status choose_automatically(TransportChoice* out) {
  const std::string requested = setting_value("WEFT_OFI_PROVIDER");
  if (requested != "auto") {
    ofi::Provider p;
    WEFT_TRY(ofi::choose_provider(requested, &p, &out->why));
    *out = {"ofi", p.name, "WEFT_TRANSPORT=auto and WEFT_OFI_PROVIDER=" + requested};
    return Status::success();
  }
  if (!ofi::native_fabric_device_present()) {
    *out = {"ucx", "", "no device of a fabric UCX does not drive (Slingshot, Omni-Path, EFA, "
                       "Intel Ethernet for psm3) on this host"};
    return Status::success();
  }
  for (const ofi::Provider& p : ofi::list_providers()) {
    if (!p.native_fabric || !p.refused.empty()) continue;
    *out = {"ofi", p.name, "libfabric's " + p.name + " drives a fabric UCX does not"};
    return Status::success();
  }
  *out = {"ucx", "", "libfabric offers no provider for a fabric UCX does not drive (cxi, opx, "
                     "psm3, psm2, efa)"};
  return Status::success();
}
#endif

Status start_ofi(const JobInfo& job, const TransportChoice& choice,
                 std::unique_ptr<Transport>* net) {
#ifdef WEFT_HAVE_OFI
  OfiOptions options;
  options.provider = choice.provider;
  options.rank = job.rank;
  options.world_size = job.size;
  options.address_of = process_address;
  return make_ofi_transport(options, net);
#else
  (void)job, (void)choice, (void)net;
  return Status::error(MPI_ERR_OTHER, "WEFT_TRANSPORT=ofi: this Weft was built without libfabric");
#endif
}

Status start_ucx(const JobInfo& job, bool oversubscribed, std::unique_ptr<Transport>* net) {
  UcxOptions options;
  options.world_size = job.size;
  options.local_size = job.local_size;
  // Serialized whatever the level: the asynchronous progress thread and, under
  // MPI_THREAD_MULTIPLE, any thread may drive the worker, one at a time under the call lock
  // (runtime/call_lock.hpp).
  options.multi_threaded = true;
  options.oversubscribed = oversubscribed;
  options.pack_device_memory = gpu_ucx_pack_wanted();
  options.staging = staging_shape();
  return make_ucx_transport(options, net);
}

Status start_node_segment(const JobInfo& job) {
  if (!node_transport_wanted(job) || job.rank != job.local_peers.front()) return Status::success();
  const int local_size = int(job.local_peers.size());
  const size_t ring = shm::ShmTransport::ring_bytes_for(
      local_size, size_t(setting_long("WEFT_SHM_RING_BYTES", 0)));
  // A node that cannot have the segment runs on the network transport alone: its other ranks
  // find no segment and do the same.
  const bool regions = setting_long("WEFT_SHM_COLL", 1) != 0;
  (void)shm::Segment::create(node_segment_name(job), local_size, ring,
                             regions ? int(setting_long("WEFT_SHM_COLL_REGIONS", 16)) : 0,
                             size_t(setting_long("WEFT_SHM_COLL_BYTES", 16384)));
  return Status::success();
}

}  // namespace

gpu::StagingShape staging_shape() {
  gpu::StagingShape shape;
  shape.chunk_bytes =
      size_t(std::max(setting_long("WEFT_GPU_STAGING_CHUNK", long(shape.chunk_bytes)), 4096L));
  shape.depth =
      size_t(std::clamp(setting_long("WEFT_GPU_STAGING_DEPTH", long(shape.depth)), 1L, 64L));
  return shape;
}

bool gpu_ipc_wanted() { return setting_long("WEFT_GPU_IPC", 1) != 0; }

bool gpu_ucx_pack_wanted() { return setting_long("WEFT_GPU_UCX_PACK", 1) != 0; }

Status choose_transport(TransportChoice* out) {
  const std::string wanted = setting_value("WEFT_TRANSPORT");
  if (wanted == "ucx") {
    *out = {"ucx", "", "WEFT_TRANSPORT=ucx"};
    return Status::success();
  }
  if (wanted == "ofi") {
#ifdef WEFT_HAVE_OFI
    ofi::Provider p;
    std::string why;
    WEFT_TRY(ofi::choose_provider(setting_value("WEFT_OFI_PROVIDER"), &p, &why));
    *out = {"ofi", p.name, "WEFT_TRANSPORT=ofi; provider: " + why};
    return Status::success();
#else
    return Status::error(MPI_ERR_OTHER, "WEFT_TRANSPORT=ofi: this Weft was built without libfabric");
#endif
  }
  if (wanted != "auto") {
    return Status::error(MPI_ERR_ARG, "WEFT_TRANSPORT=" + wanted + ": want ucx, ofi or auto");
  }
#ifdef WEFT_HAVE_OFI
  return choose_automatically(out);
#else
  *out = {"ucx", "", "built without libfabric"};
  return Status::success();
#endif
}

Status start_transports(const JobInfo& job, bool oversubscribed, std::unique_ptr<Transport>* net) {
  TransportChoice choice;
  WEFT_TRY(choose_transport(&choice));
  if (choice.transport == "ofi") {
    WEFT_TRY(start_ofi(job, choice, net));
  } else {
    WEFT_TRY(start_ucx(job, oversubscribed, net));
  }
  return start_node_segment(job);
}

Status finish_transports(const JobInfo& job, bool oversubscribed, std::unique_ptr<Transport> net,
                         std::unique_ptr<Transport>* out, shm::ShmTransport** node_out) {
  *node_out = nullptr;
  std::unique_ptr<shm::ShmTransport> node;
  if (node_transport_wanted(job)) {
    shm::ShmOptions o;
    o.name = node_segment_name(job);
    o.rank = job.rank;
    o.local_peers = job.local_peers;
    o.eager_limit = size_t(setting_long("WEFT_SHM_EAGER_LIMIT", 8192));
    // Two ranks on one core would take turns, not copy at once.
    if (!oversubscribed) {
      o.split_copy_min = size_t(setting_long("WEFT_SHM_SPLIT_COPY_MIN", 65536));
      o.split_stream_min = size_t(setting_long("WEFT_SHM_SPLIT_STREAM_MIN", 1048576));
    }
    o.device_ipc = gpu_ipc_wanted();
    o.staging = staging_shape();
    WEFT_TRY(shm::ShmTransport::attach(o, &node));
  }
  if (node == nullptr) {
    *out = std::move(net);
    return Status::success();
  }
  const bool spans_nodes = int(job.local_peers.size()) < job.size;
  *node_out = node.get();
  *out = make_hybrid_transport(std::move(net), std::move(node), spans_nodes);
  return Status::success();
}

}  // namespace weft
