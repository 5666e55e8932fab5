// Synchronisation of windows (MPI 4.1 §12.5): fence, post/start/complete/wait (PSCW), and
// passive-target locks with flush and sync; and the check every communication call makes that
// an access epoch to its target is open. Data operations complete before their call returns
// (rma/access.hpp), so closing an epoch only orders memory and tells the other side.
#pragma once
#include "rma/window.hpp"
#include "runtime/comm/group.hpp"

namespace weft::rma {

// MPI_ERR_RMA_SYNC unless this process may access `target` now.
Status check_access(const Window& w, int target);

Status fence(Window& w, int assert);
Status post(Window& w, const groups::Members& group, int assert);
Status start(Window& w, const groups::Members& group, int assert);
Status complete(Window& w);
// wait: blocking; test: *done tells whether every origin has completed (then as wait).
Status wait(Window& w);
Status test(Window& w, bool* done);
Status lock(Window& w, int lock_type, int target, int assert);
Status unlock(Window& w, int target);
Status lock_all(Window& w, int assert);
Status unlock_all(Window& w);
// MPI_Win_flush(_local)(_all) with target -1 for all: MPI_ERR_RMA_SYNC outside a passive epoch.
Status flush(Window& w, int target);
Status sync(const Window& w);

}  // namespace weft::rma
