// One-sided chapter, synchronisation calls: fence, post/start/complete/wait/test, lock/unlock
// (one target and all), flush in its four forms, and sync (MPI 4.1 §12.5).
#include <string>

#include "mpi.h"
#include "rma/fast_path.hpp"
#include "rma/sync.hpp"
#include "runtime/c_api/guard.hpp"
#include "runtime/c_api/rma_args.hpp"

using weft::Status;
using weft::world;
namespace capi = weft::capi;
namespace rma = weft::rma;

namespace {

constexpr int kKnownAsserts =
    MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED;

Status check_assert(int assert) {
  if ((assert & ~kKnownAsserts) == 0) return Status::success();
  return Status::error(MPI_ERR_ASSERT, "invalid assert=" + std::to_string(assert) +
                                           " (an OR of MPI_MODE_NOCHECK, NOSTORE, NOPUT, "
                                           "NOPRECEDE and NOSUCCEED, or 0)");
}

// Every call: the window, then `body` on it.
template <typename Body>
int on_window(const char* fn, MPI_Win win, Body body) {
  WEFT_REQUIRE_RUNNING(fn);
  rma::Window* w = nullptr;
  WEFT_WIN_CHECK(win, fn, capi::window_arg(win, &w));
  WEFT_WIN_CHECK(win, fn, body(*w));
  return MPI_SUCCESS;
}

// PSCW: the group's members, checked.
template <typename Sync>
int group_call(const char* fn, MPI_Group group, int assert, MPI_Win win, Sync sync) {
  return on_window(fn, win, [&](rma::Window& w) {
    WEFT_TRY(check_assert(assert));
    weft::GroupRef members;
    WEFT_TRY(weft::lookup_group(world().groups, group, "group", &members));
    return sync(w, *members, assert);
  });
}

}  // namespace

extern "C" {

int PMPI_Win_fence(int assert, MPI_Win win) {
  return on_window("MPI_Win_fence", win, [&](rma::Window& w) {
    WEFT_TRY(check_assert(assert));
    return rma::fence(w, assert);
  });
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win) {
  return group_call("MPI_Win_post", group, assert, win, rma::post);
}

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win) {
  return group_call("MPI_Win_start", group, assert, win, rma::start);
}

int PMPI_Win_complete(MPI_Win win) { return on_window("MPI_Win_complete", win, rma::complete); }

int PMPI_Win_wait(MPI_Win win) { return on_window("MPI_Win_wait", win, rma::wait); }

int PMPI_Win_test(MPI_Win win, int* flag) {
  return on_window("MPI_Win_test", win, [&](rma::Window& w) {
    WEFT_TRY(capi::check_not_null(flag, "flag"));
    bool done = false;
    WEFT_TRY(rma::test(w, &done));
    *flag = done;
    return Status::success();
  });
}

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win) {
  if (rma::fast_lock(lock_type, rank, assert, win)) return MPI_SUCCESS;
  return on_window("MPI_Win_lock", win, [&](rma::Window& w) {
    if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
      return Status::error(MPI_ERR_LOCKTYPE, "invalid lock_type=" + std::to_string(lock_type) +
                                                 " (MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE)");
    WEFT_TRY(check_assert(assert));
    if (rank == MPI_PROC_NULL) return Status::success();
    return rma::lock(w, lock_type, rank, assert);
  });
}

int PMPI_Win_unlock(int rank, MPI_Win win) {
  if (rma::fast_unlock(rank, win)) return MPI_SUCCESS;
  return on_window("MPI_Win_unlock", win, [&](rma::Window& w) {
    return rank == MPI_PROC_NULL ? Status::success() : rma::unlock(w, rank);
  });
}

int PMPI_Win_lock_all(int assert, MPI_Win win) {
  return on_window("MPI_Win_lock_all", win, [&](rma::Window& w) {
    WEFT_TRY(check_assert(assert));
    return rma::lock_all(w, assert);
  });
}

int PMPI_Win_unlock_all(MPI_Win win) {
  return on_window("MPI_Win_unlock_all", win, rma::unlock_all);
}

int PMPI_Win_flush(int rank, MPI_Win win) {
  if (rma::fast_flush(win, rank)) return MPI_SUCCESS;
  return on_window("MPI_Win_flush", win, [&](rma::Window& w) {
    return rank == MPI_PROC_NULL ? Status::success() : rma::flush(w, rank);
  });
}

int PMPI_Win_flush_all(MPI_Win win) {
  if (rma::fast_flush(win, -1)) return MPI_SUCCESS;
  return on_window("MPI_Win_flush_all", win, [&](rma::Window& w) { return rma::flush(w, -1); });
}

int PMPI_Win_flush_local(int rank, MPI_Win win) {
  if (rma::fast_flush(win, rank)) return MPI_SUCCESS;
  return on_window("MPI_Win_flush_local", win, [&](rma::Window& w) {
    return rank == MPI_PROC_NULL ? Status::success() : rma::flush(w, rank);
  });
}

int PMPI_Win_flush_local_all(MPI_Win win) {
  if (rma::fast_flush(win, -1)) return MPI_SUCCESS;
  return on_window("MPI_Win_flush_local_all", win,
                   [&](rma::Window& w) { return rma::flush(w, -1); });
}

int PMPI_Win_sync(MPI_Win win) { return on_window("MPI_Win_sync", win, rma::sync); }

}  // extern "C"

WEFT_MPI_ALIAS(MPI_Win_fence)
WEFT_MPI_ALIAS(MPI_Win_post)
WEFT_MPI_ALIAS(MPI_Win_start)
WEFT_MPI_ALIAS(MPI_Win_complete)
WEFT_MPI_ALIAS(MPI_Win_wait)
WEFT_MPI_ALIAS(MPI_Win_test)
WEFT_MPI_ALIAS(MPI_Win_lock)
WEFT_MPI_ALIAS(MPI_Win_unlock)
WEFT_MPI_ALIAS(MPI_Win_lock_all)
WEFT_MPI_ALIAS(MPI_Win_unlock_all)
WEFT_MPI_ALIAS(MPI_Win_flush)
WEFT_MPI_ALIAS(MPI_Win_flush_all)
WEFT_MPI_ALIAS(MPI_Win_flush_local)
WEFT_MPI_ALIAS(MPI_Win_flush_local_all)
WEFT_MPI_ALIAS(MPI_Win_sync)
