// Setting the node transport up and down (pt2pt/shm/shm_transport.hpp): ring sizes, mapping the
// node segment with a ring to and from every local rank, and what is released at the end.
#include <algorithm>

#include "gpu/memory.hpp"
#include "mpi.h"
#include "pt2pt/shm/shm_transport.hpp"

namespace weft::shm {

size_t ShmTransport::ring_bytes_for(int local_size, size_t ring_bytes) {
  size_t want = ring_bytes;
  if (want == 0) want = (size_t{32} << 20) / (size_t(local_size) * size_t(local_size));
  want = std::clamp<size_t>(want, size_t{8} << 10, size_t{256} << 10);
  size_t pow2 = 4096;
  while (pow2 * 2 <= want) pow2 *= 2;
  return pow2;
}

Status ShmTransport::attach(const ShmOptions& o, std::unique_ptr<ShmTransport>* out) {
  const auto mine = std::find(o.local_peers.begin(), o.local_peers.end(), o.rank);
  const int local = int(mine - o.local_peers.begin());
  const int local_size = int(o.local_peers.size());
  std::unique_ptr<Segment> segment;
  WEFT_TRY(Segment::attach(o.name, local, local_size, &segment));
  if (segment == nullptr || !segment->cma_allowed()) return Status::success();
  std::unique_ptr<ShmTransport> t(new ShmTransport());
  WEFT_TRY(t->doorbell_.open());
  t->me_ = local;
  t->local_of_.assign(size_t(o.local_peers.back()) + 1, -1);
  for (int i = 0; i < local_size; ++i) t->local_of_[size_t(o.local_peers[size_t(i)])] = i;
  const size_t cells = segment->ring_cells();
  segment->prefault_rings(local);
  for (int p = 0; p < local_size; ++p) {
    t->out_.emplace_back(segment->ring_control(local, p), segment->ring_cells(local, p), cells);
    t->in_.emplace_back(segment->ring_control(p, local), segment->ring_cells(p, local), cells);
  }
  t->pending_.resize(size_t(local_size));
  t->waiting_sends_.assign(size_t(local_size), 0);
  t->eager_limit_ = std::min(o.eager_limit, t->out_[0].max_payload());
  t->split_copy_min_ =
      o.split_copy_min == 0 ? 0 : std::max(o.split_copy_min, t->eager_limit_ + 1);
  t->split_stream_min_ = std::max(o.split_stream_min, t->split_copy_min_);
  // The driver is there; whether a buffer is device memory is asked per large message.
  t->device_ipc_ = o.device_ipc && gpu::device_memory() != nullptr;
  t->staging_ = o.staging;
  t->cannot_map_ours_.assign(size_t(local_size), 0);
  t->segment_ = std::move(segment);
  *out = std::move(t);
  return Status::success();
}

ShmTransport::~ShmTransport() {
  if (gpu::DeviceMemory* memory = gpu::device_memory(); memory != nullptr)
    ipc_cache_.clear(*memory);
}

Status ShmTransport::connect(int peer, const std::vector<uint8_t>&) {
  if (reaches(peer)) return Status::success();
  return Status::error(MPI_ERR_OTHER,
                       "the shared-memory transport reaches only this node's ranks, not rank " +
                           std::to_string(peer));
}

}  // namespace weft::shm
