// The origin side of operations on targets of Reach::kRemote (and on GPU memory another process
// of this node attached to a dynamic window): the transport's RMA and atomics
// where the window has them (rma/transport_keys.hpp, rma/transport_atomics.hpp), else the
// active-message path (rma/messages.hpp). Puts and accumulates go out without waiting; gets,
// fetches and compare-and-swap wait for their answer; flush, unlock and the epoch ends wait
// until the target has served every earlier request of this process.
#pragma once
#include "rma/access.hpp"
#include "rma/messages.hpp"

namespace weft::rma {

Status remote_put(Window& w, const TargetSpan& span, const unsigned char* packed);
Status remote_get(Window& w, const TargetSpan& span, unsigned char* packed);
Status remote_accumulate(Window& w, const TargetSpan& span, const unsigned char* packed,
                         const Combine& how, unsigned char* old);
Status remote_compare_and_swap(Window& w, const TargetSpan& span, const void* value,
                               const void* compare, void* old, const Datatype& type);
Status remote_lock(Window& w, int target, bool exclusive);
Status remote_unlock(Window& w, int target, bool exclusive);
// Every earlier request to `target` (-1: to every target sent any) is done at the target.
// Requests a dynamic window's target refused (outside its attached memory) are not an error
// here, as the synchronization call must still finish its part: they wait in take_refusal.
Status remote_flush(Window& w, int target);
// The refusal (MPI_ERR_RMA_RANGE) the last unlock or flush of a target learnt of and no call
// returned yet, cleared; success when none. Synchronization calls return it once done.
Status take_refusal(Window& w);
// Asks `target` which region of GPU or host memory attached to dynamic window `w` holds
// `address` (rma/messages.hpp, kRegion).
Status remote_region(Window& w, int target, uint64_t address, RegionAnswer* out);

// The server of a window whose members use the active-message path; started at creation and
// stopped by MPI_Win_free after its final barrier.
Status start_server(Window& w);
void stop_server(Window& w);

}  // namespace weft::rma
