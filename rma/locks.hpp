// The passive-target lock and the accumulate mutex of a target on this node, as atomics in its
// control block (rma/node_segment.hpp) that any member of the node takes without the target's
// help. Waiters spin, yielding the core so that an oversubscribed node still runs the holder.
#pragma once
#include <sched.h>

#include "rma/node_segment.hpp"

namespace weft::rma {

inline bool try_lock(TargetControl* c, bool exclusive) {
  int32_t v = c->lock.load(std::memory_order_relaxed);
  if (exclusive) {
    return v == 0 && c->lock.compare_exchange_strong(v, -1, std::memory_order_acquire);
  }
  return v >= 0 && c->lock.compare_exchange_strong(v, v + 1, std::memory_order_acquire);
}

inline void unlock(TargetControl* c, bool exclusive) {
  if (exclusive) {
    c->lock.store(0, std::memory_order_release);
  } else {
    c->lock.fetch_sub(1, std::memory_order_release);
  }
}

// Holds a target's accumulate mutex for its lifetime.
class AccumulateGuard {
 public:
  explicit AccumulateGuard(TargetControl* c) : c_(c) {
    if (c_ == nullptr) return;
    for (int32_t expected = 0;
         !c_->accumulate.compare_exchange_weak(expected, 1, std::memory_order_acquire);
         expected = 0) {
      sched_yield();
    }
  }
  ~AccumulateGuard() {
    if (c_ != nullptr) c_->accumulate.store(0, std::memory_order_release);
  }
  AccumulateGuard(const AccumulateGuard&) = delete;
  AccumulateGuard& operator=(const AccumulateGuard&) = delete;

 private:
  TargetControl* c_;
};

}  // namespace weft::rma
