// The short paths of the one-sided calls programs repeat most (put, get, flush, fetch_and_op,
// compare_and_swap, lock, unlock) for the common case: a predefined type, host buffers, a target
// on this node whose host memory is mapped here (or, for locks, whose control block is), an
// epoch that allows the call, everything in range. They do what the general path
// (rma/operations.hpp, rma/sync.hpp) would do, under the same lock and accumulate mutex;
// anything else (or anything wrong) returns false and the call takes the general path, which
// checks everything and reports errors. They run before the call lock is taken, so whenever
// several threads may be in the library (MPI_THREAD_MULTIPLE, or a library thread at work:
// call_lock::multiple()) they step aside (return false) and the general path, holding the lock
// (runtime/call_lock.hpp), does the work.
#pragma once
#include <atomic>
#include <cstring>

#include "gpu/memory.hpp"
#include "rma/locks.hpp"
#include "rma/window.hpp"
#include "runtime/call_lock.hpp"
#include "runtime/datatype/predefined.hpp"
#include "runtime/world.hpp"

#define WEFT_RMA_INLINE inline __attribute__((always_inline))

namespace weft::rma {

// The window and target of a short path, or nullptr.
WEFT_RMA_INLINE Window* fast_window(MPI_Win win, int rank) {
  if (call_lock::multiple()) return nullptr;
  Window* w = windows().find(win);
  if (w == nullptr || rank < 0 || rank >= w->size || world().phase != Phase::kRunning)
    return nullptr;
  return w;
}

// The mapped target memory of `count` elements of predefined `type` at `disp`, or nullptr.
WEFT_RMA_INLINE unsigned char* fast_target(const Window& w, int rank, MPI_Aint disp,
                                           MPI_Count count, MPI_Datatype type, uint64_t* bytes) {
  const Target& t = w.targets[size_t(rank)];
  if (t.reach != Reach::kMapped || t.device || w.flavor == MPI_WIN_FLAVOR_DYNAMIC || disp < 0 ||
      count < 0 || !is_predefined_type(type))
    return nullptr;
  *bytes = uint64_t(count) * predefined_type(type).size;
  const uint64_t start = uint64_t(disp) * t.disp_unit;
  if (*bytes > t.size || start > t.size - *bytes) return nullptr;
  return t.mapped + start;
}

// An access epoch to `rank` that needs nothing at the end but a memory fence.
WEFT_RMA_INLINE bool fast_epoch(const Window& w, int rank) {
  return w.epochs.fence || w.epochs.lock_all || w.epochs.locks.holds(rank);
}

WEFT_RMA_INLINE bool fast_put_get(bool get, MPI_Win win, const void* origin, MPI_Count origin_count,
                                  MPI_Datatype origin_type, int rank, MPI_Aint disp,
                                  MPI_Count target_count, MPI_Datatype target_type) {
  if (origin_type != target_type || origin_count != target_count) return false;
  Window* w = fast_window(win, rank);
  if (w == nullptr || !fast_epoch(*w, rank)) return false;
  uint64_t bytes = 0;
  unsigned char* at = fast_target(*w, rank, disp, target_count, target_type, &bytes);
  if (at == nullptr || (bytes > 0 && origin == nullptr) || gpu::on_device(origin)) return false;
  unsigned char* from = get ? at : static_cast<unsigned char*>(const_cast<void*>(origin));
  unsigned char* to = get ? static_cast<unsigned char*>(const_cast<void*>(origin)) : at;
  if (bytes == 8) {
    std::memcpy(to, from, 8);  // a constant size: one load and one store
  } else {
    std::memcpy(to, from, bytes);
  }
  return true;
}

// MPI_Win_flush(_local) to any rank inside lock_all or a lock on this node (or to -1, all of
// them): operations are already complete, so a release fence is all there is to do.
WEFT_RMA_INLINE bool fast_flush(MPI_Win win, int rank) {
  if (call_lock::multiple()) return false;
  Window* w = windows().find(win);
  if (w == nullptr || rank < -1 || rank >= w->size || world().phase != Phase::kRunning ||
      !w->remote.dirty.empty() || !w->remote.rma_dirty.empty())
    return false;
  if (!w->epochs.lock_all && (rank < 0 || !w->epochs.locks.holds(rank))) return false;
  std::atomic_thread_fence(std::memory_order_release);
  return true;
}

// MPI_Fetch_and_op with MPI_NO_OP, MPI_REPLACE or the predefined op applied last on this window
// with this type (the first call of a pair takes the general path's binding, which checks it).
WEFT_RMA_INLINE bool fast_fetch_and_op(const void* origin, void* result, MPI_Datatype type,
                                       int rank, MPI_Aint disp, MPI_Op op, MPI_Win win) {
  Window* w = fast_window(win, rank);
  if (w == nullptr || !fast_epoch(*w, rank) || result == nullptr) return false;
  uint64_t bytes = 0;
  unsigned char* at = fast_target(*w, rank, disp, 1, type, &bytes);
  if (at == nullptr) return false;
  const bool known = op == MPI_NO_OP || op == MPI_REPLACE ||
                     (op == w->fetch_op.op && type == w->fetch_op.type);
  if (!known || (op != MPI_NO_OP && origin == nullptr)) return false;
  AccumulateGuard hold(w->targets[size_t(rank)].control);
  std::memcpy(result, at, bytes);
  if (op == MPI_REPLACE) {
    std::memcpy(at, origin, bytes);
  } else if (op != MPI_NO_OP) {
    w->fetch_op.reduction.apply(origin, at, 1);
  }
  return true;
}

WEFT_RMA_INLINE bool fast_compare_and_swap(const void* value, const void* compare, void* result,
                                           MPI_Datatype type, int rank, MPI_Aint disp,
                                           MPI_Win win) {
  Window* w = fast_window(win, rank);
  if (w == nullptr || !fast_epoch(*w, rank) || value == nullptr || compare == nullptr ||
      result == nullptr)
    return false;
  uint64_t bytes = 0;
  unsigned char* at = fast_target(*w, rank, disp, 1, type, &bytes);
  if (at == nullptr) return false;
  AccumulateGuard hold(w->targets[size_t(rank)].control);
  std::memcpy(result, at, bytes);
  if (std::memcmp(at, compare, bytes) == 0) std::memcpy(at, value, bytes);
  return true;
}

// MPI_Win_lock of a target on this node whose lock is free now (a wait takes the general path).
WEFT_RMA_INLINE bool fast_lock(int lock_type, int rank, int assert, MPI_Win win) {
  if ((lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE) ||
      (assert != 0 && assert != MPI_MODE_NOCHECK))
    return false;
  Window* w = fast_window(win, rank);
  if (w == nullptr || w->epochs.lock_all || w->epochs.locks.holds(rank)) return false;
  const Target& t = w->targets[size_t(rank)];
  if (t.reach == Reach::kRemote) return false;
  if (assert == 0 && !try_lock(t.control, lock_type == MPI_LOCK_EXCLUSIVE)) return false;
  w->epochs.locks.set(rank, assert == 0 ? lock_type : -lock_type);
  return true;
}

// MPI_Win_unlock of a target on this node: its operations are complete already.
WEFT_RMA_INLINE bool fast_unlock(int rank, MPI_Win win) {
  Window* w = fast_window(win, rank);
  if (w == nullptr || !w->epochs.locks.holds(rank)) return false;
  const Target& t = w->targets[size_t(rank)];
  if (t.reach == Reach::kRemote || !w->remote.dirty.empty()) return false;  // requests to flush
  const int type = w->epochs.locks.type(rank);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (type > 0) unlock(t.control, type == MPI_LOCK_EXCLUSIVE);
  w->epochs.locks.clear(rank);
  return true;
}

}  // namespace weft::rma

#undef WEFT_RMA_INLINE
