// Prepared collective calls per communicator: lookup by CollArgs, least-recently-used bounds.
#include "coll/call_cache.hpp"

#include <algorithm>

namespace weft::coll {

std::unique_ptr<CollOp> CallCache::remove(size_t index) {
  std::unique_ptr<CollOp> op = std::move(idle_[index].op);
  idle_bytes_ -= idle_[index].bytes;
  std::move(idle_.begin() + ptrdiff_t(index) + 1, idle_.end(), idle_.begin() + ptrdiff_t(index));
  idle_.pop_back();
  return op;
}

std::unique_ptr<CollOp> CallCache::take(Comm& comm, const CallSpec& spec) {
  for (size_t i = idle_.size(); i-- > 0;) {
    if (!idle_[i].op->prepared_for(spec.args)) continue;
    ++hits_;
    std::unique_ptr<CollOp> op = remove(i);
    op->bind(comm, spec);
    return op;
  }
  ++misses_;
  std::unique_ptr<CollOp> op = idle_.size() < kMaxIdle ? std::make_unique<CollOp>() : remove(0);
  op->prepare(comm, spec);
  return op;
}

void CallCache::give_back(std::unique_ptr<CollOp> op) {
  const size_t bytes = op->retained_bytes();
  idle_bytes_ += bytes;
  idle_.push_back({std::move(op), bytes});
  while (idle_.size() > 1 && (idle_.size() > kMaxIdle || idle_bytes_ > kMaxIdleBytes)) remove(0);
}

const std::shared_ptr<CallCache>& call_cache(Comm& comm) {
  std::shared_ptr<CallCache>& cache = comm.prepared_calls.held;
  if (cache == nullptr) cache = std::make_shared<CallCache>();
  return cache;
}

}  // namespace weft::coll
