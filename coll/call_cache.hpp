// A communicator's prepared collective calls, kept for the calls that repeat them: an idle
// CollOp built for equal CollArgs already has its algorithm chosen, its schedule built and
// planned and its buffers allocated, so a repeated call only binds its buffers and runs. The
// schedule stays the algorithm's own (principle 1); only the work of making it is saved.
// Ownership: the communicator holds its cache (Comm::prepared_calls). An op taken out is the
// taker's: a blocking call gives it back when done; a request that owns one gives it back when
// released (CollOp::release), or deletes it when the communicator, and so the cache, is gone.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "coll/coll_op.hpp"

namespace weft::coll {

class CallCache {
 public:
  // Idle ops kept at most, and the bytes of buffers they may keep between them (the op given
  // back last is kept whatever its size, as the one op of repeated blocking calls always was).
  static constexpr size_t kMaxIdle = 8;
  static constexpr size_t kMaxIdleBytes = size_t(64) << 20;

  // An op prepared and bound for `spec` on `comm`: the most recently used idle one built for
  // equal CollArgs (a hit), else a new one, or the least recently used idle one rebuilt when
  // kMaxIdle are idle. spec.args must be complete.
  std::unique_ptr<CollOp> take(Comm& comm, const CallSpec& spec);
  // `op` (not running) is idle again, the most recently used; the least recently used ones go
  // beyond the bounds above.
  void give_back(std::unique_ptr<CollOp> op);

  size_t idle() const { return idle_.size(); }
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }

 private:
  std::unique_ptr<CollOp> remove(size_t index);

  struct Idle {
    std::unique_ptr<CollOp> op;
    size_t bytes;  // its retained_bytes() when given back
  };
  std::vector<Idle> idle_;  // least recently used first
  size_t idle_bytes_ = 0;   // the sum of their bytes
  uint64_t hits_ = 0, misses_ = 0;
};

// The cache of `comm`, made on first use.
const std::shared_ptr<CallCache>& call_cache(Comm& comm);

}  // namespace weft::coll
