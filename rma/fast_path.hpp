// The short paths of MPI_Put, MPI_Get and MPI_Win_flush for the common case: the same predefined
// type and count at both ends, a target whose window memory is mapped here, inside a fence or
// lock_all epoch, in range. It only copies; anything else (or anything wrong) returns false and the
// call takes the general path (rma/operations.hpp), which checks everything and reports errors.
#pragma once
#include <atomic>
#include <cstring>

#include "rma/window.hpp"
#include "runtime/datatype/predefined.hpp"
#include "runtime/world.hpp"

namespace weft::rma {

inline bool fast_put_get(bool get, MPI_Win win, const void* origin, MPI_Count origin_count,
                         MPI_Datatype origin_type, int rank, MPI_Aint disp, MPI_Count target_count,
                         MPI_Datatype target_type) {
  if (origin_type != target_type || origin_count != target_count || origin_count < 0 ||
      !is_predefined_type(origin_type) || disp < 0 || world().phase != Phase::kRunning)
    return false;
  Window* w = windows().find(win);
  if (w == nullptr || rank < 0 || rank >= w->size || !(w->epochs.fence || w->epochs.lock_all))
    return false;
  const Target& t = w->targets[size_t(rank)];
  if (t.reach != Reach::kMapped || w->flavor == MPI_WIN_FLAVOR_DYNAMIC) return false;
  const uint64_t bytes = uint64_t(origin_count) * predefined_type(origin_type).size;
  const uint64_t start = uint64_t(disp) * t.disp_unit;
  if (bytes > t.size || start > t.size - bytes || (bytes > 0 && origin == nullptr)) return false;
  unsigned char* at = t.mapped + start;
  if (get) {
    std::memcpy(const_cast<void*>(origin), at, bytes);
  } else {
    std::memcpy(at, origin, bytes);
  }
  return true;
}

// MPI_Win_flush(_local) to any rank inside lock_all (or to -1, all of them, inside lock_all):
// operations are already complete, so a release fence is all there is to do.
inline bool fast_flush(MPI_Win win, int rank) {
  Window* w = windows().find(win);
  if (w == nullptr || !w->epochs.lock_all || !w->remote.dirty.empty() || !w->remote.rma_dirty.empty() || rank < -1 ||
      rank >= w->size || world().phase != Phase::kRunning)
    return false;
  std::atomic_thread_fence(std::memory_order_release);
  return true;
}

}  // namespace weft::rma
