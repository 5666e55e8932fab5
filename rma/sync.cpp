// Fence, PSCW and passive-target synchronisation (rma/sync.hpp). PSCW notices are zero-byte
// messages on the window's private communicator: a target's post tells each origin it may
// start, an origin's complete tells each target its operations are done.
#include "rma/sync.hpp"

#include <atomic>
#include <string>

#include "pt2pt/pt2pt.hpp"
#include "rma/locks.hpp"
#include "rma/remote.hpp"
#include "runtime/comm/create.hpp"
#include "runtime/world.hpp"

namespace weft::rma {
namespace {

constexpr int kPostTag = 1;
constexpr int kCompleteTag = 2;

Status sync_error(const Window& w, const std::string& what) {
  return Status::error(MPI_ERR_RMA_SYNC, what + " on " + w.display_name());
}

Comm& window_comm(const Window& w) { return *world().comms.find(w.comm); }

// The window ranks of a group's members; MPI_ERR_GROUP for a process not in the window.
Status window_ranks(const Window& w, const groups::Members& group, std::vector<int>* out) {
  const Comm& c = window_comm(w);
  for (int world_rank : group) {
    const int r = groups::rank_of(c.world_ranks, world_rank);
    if (r == MPI_UNDEFINED)
      return Status::error(MPI_ERR_GROUP, "the group holds world rank " +
                                              std::to_string(world_rank) + ", not a member of " +
                                              w.display_name());
    out->push_back(r);
  }
  return Status::success();
}

Status notice(const Window& w, int rank, int tag, bool send, Request** out) {
  Request* r = world().requests.acquire();
  Status s =
      send ? pt2pt::start_send(window_comm(w), nullptr, 0, rank, tag, pt2pt::SendMode::kStandard, r)
           : pt2pt::start_recv(window_comm(w), nullptr, 0, rank, tag, r);
  if (!s.ok()) {
    world().requests.release(r);
    return s;
  }
  *out = r;
  return Status::success();
}

void finish(std::vector<Request*>* requests) {
  for (Request* r : *requests) {
    pt2pt::wait(r);
    world().requests.release(r);
  }
  requests->clear();
}

bool all_done(const std::vector<Request*>& requests) {
  for (const Request* r : requests)
    if (!r->completion.done) return false;
  return true;
}

Status check_target(const Window& w, int target) {
  if (target >= 0 && target < w.size) return Status::success();
  return Status::error(MPI_ERR_RANK, "invalid rank=" + std::to_string(target) + " (" +
                                         w.display_name() + " has " + std::to_string(w.size) +
                                         " ranks)");
}

// Takes `target`'s lock: directly in its control block on this node, by request otherwise.
Status acquire(Window& w, int target, bool exclusive) {
  if (w.targets[size_t(target)].reach == Reach::kRemote) return remote_lock(w, target, exclusive);
  TargetControl* c = w.targets[size_t(target)].control;
  // Others' operations need no help from this process, but an oversubscribed node needs the
  // core, and remote origins need this process to serve them: poll and yield between tries.
  while (!try_lock(c, exclusive)) {
    world().progress.poll();
    CallGuard::yield_turn();  // under MPI_THREAD_MULTIPLE, others' calls go on meanwhile
  }
  return Status::success();
}

// Ends a lock epoch on `target`: its operations complete there, then the lock (if `held`, that
// is, not taken with MPI_MODE_NOCHECK) is released.
Status release(Window& w, int target, bool held, bool exclusive) {
  const bool remote = w.targets[size_t(target)].reach == Reach::kRemote;
  if (remote) return held ? remote_unlock(w, target, exclusive) : remote_flush(w, target);
  // Requests sent to it (GPU memory it attached to a dynamic window) are done before the lock
  // goes.
  WEFT_TRY(remote_flush(w, target));
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (held) rma::unlock(w.targets[size_t(target)].control, exclusive);
  return Status::success();
}

}  // namespace

Status check_access(const Window& w, int target) {
  const Epochs& e = w.epochs;
  if (e.fence || e.lock_all || e.locks.holds(target) || e.access_group.count(target) != 0)
    return Status::success();
  return sync_error(w, "no access epoch to rank " + std::to_string(target) +
                           " is open (call MPI_Win_fence, MPI_Win_start, MPI_Win_lock or "
                           "MPI_Win_lock_all first)");
}

Status fence(Window& w, int assert) {
  if (w.epochs.access_open || w.epochs.exposure_open || !w.epochs.locks.empty() ||
      w.epochs.lock_all)
    return sync_error(w, "MPI_Win_fence called while a PSCW or lock epoch is open");
  WEFT_TRY(remote_flush(w, -1));
  std::atomic_thread_fence(std::memory_order_seq_cst);
  WEFT_TRY(internal_barrier(window_comm(w)));
  w.epochs.fence = (assert& MPI_MODE_NOSUCCEED) == 0;
  return take_refusal(w);
}

Status post(Window& w, const groups::Members& group, int assert) {
  if (w.epochs.exposure_open)
    return sync_error(w, "MPI_Win_post called twice without MPI_Win_wait");
  std::vector<int> origins;
  WEFT_TRY(window_ranks(w, group, &origins));
  std::atomic_thread_fence(std::memory_order_seq_cst);
  for (int origin : origins) {
    Request* r = nullptr;
    WEFT_TRY(notice(w, origin, kCompleteTag, false, &r));
    w.epochs.complete_recvs.push_back(r);
    if ((assert& MPI_MODE_NOCHECK) == 0) {
      WEFT_TRY(notice(w, origin, kPostTag, true, &r));
      w.epochs.post_sends.push_back(r);
    }
  }
  w.epochs.exposure_group = origins;
  w.epochs.exposure_open = true;
  w.epochs.fence = false;
  return Status::success();
}

Status start(Window& w, const groups::Members& group, int assert) {
  if (w.epochs.access_open)
    return sync_error(w, "MPI_Win_start called twice without MPI_Win_complete");
  std::vector<int> targets;
  WEFT_TRY(window_ranks(w, group, &targets));
  if ((assert& MPI_MODE_NOCHECK) == 0) {
    std::vector<Request*> posts;
    for (int target : targets) {
      Request* r = nullptr;
      WEFT_TRY(notice(w, target, kPostTag, false, &r));
      posts.push_back(r);
    }
    finish(&posts);
  }
  w.epochs.access_group = std::set<int>(targets.begin(), targets.end());
  w.epochs.access_open = true;
  w.epochs.fence = false;
  return Status::success();
}

Status complete(Window& w) {
  if (!w.epochs.access_open) return sync_error(w, "MPI_Win_complete called without MPI_Win_start");
  WEFT_TRY(remote_flush(w, -1));
  std::atomic_thread_fence(std::memory_order_seq_cst);
  std::vector<Request*> sends;
  for (int target : w.epochs.access_group) {
    Request* r = nullptr;
    WEFT_TRY(notice(w, target, kCompleteTag, true, &r));
    sends.push_back(r);
  }
  finish(&sends);
  w.epochs.access_group.clear();
  w.epochs.access_open = false;
  return take_refusal(w);
}

Status wait(Window& w) {
  if (!w.epochs.exposure_open) return sync_error(w, "MPI_Win_wait called without MPI_Win_post");
  finish(&w.epochs.complete_recvs);
  finish(&w.epochs.post_sends);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  w.epochs.exposure_group.clear();
  w.epochs.exposure_open = false;
  return Status::success();
}

Status test(Window& w, bool* done) {
  if (!w.epochs.exposure_open) return sync_error(w, "MPI_Win_test called without MPI_Win_post");
  world().progress.poll();
  *done = all_done(w.epochs.complete_recvs) && all_done(w.epochs.post_sends);
  return *done ? wait(w) : Status::success();
}

Status lock(Window& w, int lock_type, int target, int assert) {
  WEFT_TRY(check_target(w, target));
  if (w.epochs.locks.holds(target) || w.epochs.lock_all)
    return sync_error(w, "rank " + std::to_string(target) + " is already locked by this process");
  if ((assert& MPI_MODE_NOCHECK) == 0)
    WEFT_TRY(acquire(w, target, lock_type == MPI_LOCK_EXCLUSIVE));
  w.epochs.locks.set(target, (assert& MPI_MODE_NOCHECK) ? -lock_type : lock_type);
  return Status::success();
}

Status unlock(Window& w, int target) {
  WEFT_TRY(check_target(w, target));
  if (!w.epochs.locks.holds(target))
    return sync_error(w, "MPI_Win_unlock of rank " + std::to_string(target) +
                             ", which this process has not locked");
  const int type = w.epochs.locks.type(target);
  w.epochs.locks.clear(target);
  WEFT_TRY(release(w, target, type > 0, type == MPI_LOCK_EXCLUSIVE));
  return take_refusal(w);
}

Status lock_all(Window& w, int assert) {
  if (w.epochs.lock_all || !w.epochs.locks.empty())
    return sync_error(w, "MPI_Win_lock_all called while this process holds a lock");
  const bool checked = (assert& MPI_MODE_NOCHECK) == 0;
  if (checked)
    for (int t = 0; t < w.size; ++t) WEFT_TRY(acquire(w, t, false));
  w.epochs.lock_all = true;
  w.epochs.lock_all_checked = checked;
  return Status::success();
}

Status unlock_all(Window& w) {
  if (!w.epochs.lock_all)
    return sync_error(w, "MPI_Win_unlock_all called without MPI_Win_lock_all");
  w.epochs.lock_all = false;
  for (int t = 0; t < w.size; ++t) WEFT_TRY(release(w, t, w.epochs.lock_all_checked, false));
  return take_refusal(w);
}

Status flush(Window& w, int target) {
  if (target >= 0) WEFT_TRY(check_target(w, target));
  const bool held = w.epochs.lock_all ||
                    (target < 0 ? !w.epochs.locks.empty() : w.epochs.locks.holds(target));
  if (!held) return sync_error(w, "flush outside a passive-target epoch (MPI_Win_lock first)");
  // Operations on this node are complete when their calls return; the fence only keeps the
  // compiler (and weakly ordered processors) from moving later stores before them.
  std::atomic_thread_fence(std::memory_order_release);
  WEFT_TRY(remote_flush(w, target));
  return take_refusal(w);
}

Status sync(const Window&) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return Status::success();
}

}  // namespace weft::rma
