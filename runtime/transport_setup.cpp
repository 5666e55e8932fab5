// Choosing and starting the transports (runtime/transport_setup.hpp).
#include "runtime/transport_setup.hpp"

#include "pt2pt/hybrid_transport.hpp"
#include "pt2pt/shm/segment_name.hpp"
#include "pt2pt/shm/shm_transport.hpp"
#include "pt2pt/ucx_transport.hpp"
#include "runtime/config.hpp"

namespace weft {
namespace {

bool node_transport_wanted(const JobInfo& job) {
  return setting_long("WEFT_SHM", 1) != 0 && job.local_peers.size() > 1 && !job.nspace.empty();
}

std::string node_segment_name(const JobInfo& job) {
  return shm::segment_name(job.nspace, job.hostname);
}

}  // namespace

Status start_transports(const JobInfo& job, bool oversubscribed, std::unique_ptr<Transport>* net) {
  UcxOptions options;
  options.world_size = job.size;
  options.local_size = job.local_size;
  // Serialized whatever the level: the asynchronous progress thread and, under
  // MPI_THREAD_MULTIPLE, any thread may drive the worker, one at a time under the call lock
  // (runtime/call_lock.hpp).
  options.multi_threaded = true;
  options.oversubscribed = oversubscribed;
  WEFT_TRY(make_ucx_transport(options, net));
  if (!node_transport_wanted(job) || job.rank != job.local_peers.front()) return Status::success();
  const int local_size = int(job.local_peers.size());
  const size_t ring = shm::ShmTransport::ring_bytes_for(
      local_size, size_t(setting_long("WEFT_SHM_RING_BYTES", 0)));
  // A node that cannot have the segment runs on the network transport alone: its other ranks
  // find no segment and do the same.
  (void)shm::Segment::create(node_segment_name(job), local_size, ring);
  return Status::success();
}

Status finish_transports(const JobInfo& job, bool oversubscribed, std::unique_ptr<Transport> net,
                         std::unique_ptr<Transport>* out) {
  std::unique_ptr<shm::ShmTransport> node;
  if (node_transport_wanted(job)) {
    shm::ShmOptions o;
    o.name = node_segment_name(job);
    o.rank = job.rank;
    o.local_peers = job.local_peers;
    o.eager_limit = size_t(setting_long("WEFT_SHM_EAGER_LIMIT", 8192));
    // Two ranks on one core would take turns, not copy at once.
    if (!oversubscribed) o.split_copy_min = size_t(setting_long("WEFT_SHM_SPLIT_COPY_MIN", 65536));
    WEFT_TRY(shm::ShmTransport::attach(o, &node));
  }
  if (node == nullptr) {
    *out = std::move(net);
    return Status::success();
  }
  const bool spans_nodes = int(job.local_peers.size()) < job.size;
  *out = make_hybrid_transport(std::move(net), std::move(node), spans_nodes);
  return Status::success();
}

}  // namespace weft
