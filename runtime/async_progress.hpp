// Asynchronous progress: a thread that drives the progress engine while the application is
// outside MPI, so that requests this process serves for others (one-sided operations from
// another node, rma/target_server.hpp) complete even when it computes for a long time. It runs
// only while something needs it (a window whose members exchange messages) and
// WEFT_ASYNC_PROGRESS allows it. It and the application's calls take turns through the call
// lock (runtime/call_lock.hpp): every MPI entry point holds it (CallGuard, taken by
// WEFT_REQUIRE_RUNNING) while the thread is running. The thread stays out of the way of an application that calls MPI: it
// takes the lock only once a whole period (kQuietNs) has passed with no call entered, then
// drives progress and sleeps on the transport's event fd until traffic arrives; woken while a
// call runs (which progresses by itself), it sleeps the period again instead of contending.
#pragma once
#include "runtime/call_lock.hpp"

namespace weft {

// One more / one fewer user of the thread (collective users call them on every member). The
// first starts it, the last stops it. Called inside an MPI call.
void async_progress_retain();
void async_progress_release();
// Stops it whatever the count (MPI_Finalize).
void async_progress_shutdown();

}  // namespace weft
