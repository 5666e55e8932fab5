// Accounting of the buffer attached with MPI_Buffer_attach: which byte ranges hold buffered
// messages still being sent. First fit over a coalescing free list; the bookkeeping lives here,
// not in the user's buffer, so a message costs only its rounding (see kBsendOverhead).
#pragma once
#include <cstddef>
#include <map>
#include <optional>

namespace weft::pt2pt {

class BsendSpace {
 public:
  // Every block starts at a multiple of kAlign from the buffer's start and is a multiple of
  // kAlign long (an empty message too), so a message of b bytes takes at most b + kAlign - 1,
  // and at most b + kAlign when b is 0: MPI_BSEND_OVERHEAD (include/mpi.h) is kAlign.
  static constexpr size_t kAlign = 16;

  // Forgets all blocks; `capacity` bytes are free.
  void reset(size_t capacity);
  // Offset of a new block for a message of `bytes`, or nothing when no free range holds it.
  std::optional<size_t> allocate(size_t bytes);
  // Frees the block at `offset` (returned by allocate), merging it with free neighbours.
  void release(size_t offset);

  // What a message of `bytes` takes from the buffer.
  static size_t charge(size_t bytes);
  size_t capacity() const { return capacity_; }
  size_t free_bytes() const { return free_bytes_; }
  size_t largest_free() const;
  size_t blocks_in_use() const { return used_.size(); }

 private:
  size_t capacity_ = 0;
  size_t free_bytes_ = 0;
  std::map<size_t, size_t> free_;  // offset -> length, no two adjacent
  std::map<size_t, size_t> used_;  // offset -> length
};

}  // namespace weft::pt2pt
