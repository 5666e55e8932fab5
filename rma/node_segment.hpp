// The memory a window's members on one node share: one mapping with a control block per member
// (its passive-target lock and its accumulate mutex) followed by the members' window memory
// when the library allocates it (MPI_Win_allocate, MPI_Win_allocate_shared). Created by the
// node's first member; its name is unlinked as soon as every member has mapped it, so a job
// that is killed leaves nothing in /dev/shm.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/comm/comm.hpp"
#include "runtime/status.hpp"

namespace weft::rma {

// One member's synchronisation words, alone on a cache line.
struct alignas(64) TargetControl {
  // Passive target: 0 free, n > 0 held shared n times, -1 held exclusively.
  std::atomic<int32_t> lock{0};
  // Held while an accumulate reads, combines and writes this member's memory, so that
  // accumulates on one location are atomic with respect to each other (MPI 4.1 §12.7.1).
  std::atomic<int32_t> accumulate{0};
};

class NodeSegment {
 public:
  // Collective over `node` (the window's members on this node, in window rank order): maps one
  // segment holding a control block per member and `data_bytes[i]` bytes of memory for member
  // i. `contiguous`: member i's memory starts where member i-1's ends (MPI_Win_allocate_shared's
  // default); otherwise each starts on a page.
  static Status create(Comm& node, const std::vector<uint64_t>& data_bytes, bool contiguous,
                       std::unique_ptr<NodeSegment>* out);
  ~NodeSegment();
  NodeSegment(const NodeSegment&) = delete;
  NodeSegment& operator=(const NodeSegment&) = delete;

  TargetControl* control(int local) const { return controls_ + local; }
  unsigned char* data(int local) const { return base_ + data_offsets_[size_t(local)]; }

 private:
  NodeSegment() = default;
  unsigned char* base_ = nullptr;
  size_t bytes_ = 0;
  TargetControl* controls_ = nullptr;
  std::vector<size_t> data_offsets_;
};

}  // namespace weft::rma
