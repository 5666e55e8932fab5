// Asynchronous progress: a thread that drives the progress engine while the application is
// outside MPI, so that requests this process serves for others (one-sided operations from
// another node, rma/target_server.hpp) complete even when it computes for a long time. It runs
// only while something needs it (a window whose members exchange messages) and
// WEFT_ASYNC_PROGRESS allows it. It and the application's calls take turns through the call
// lock: every MPI entry point holds it (CallGuard, taken by WEFT_REQUIRE_RUNNING) while the
// thread is running. The thread stays out of the way of an application that calls MPI: it
// takes the lock only once a whole period (kQuietNs) has passed with no call entered, then
// drives progress and sleeps on the transport's event fd until traffic arrives; woken while a
// call runs (which progresses by itself), it sleeps the period again instead of contending.
#pragma once
#include <atomic>

namespace weft {

namespace async_progress {
// Whether the thread runs, i.e. whether calls must take the lock.
extern std::atomic<bool> g_active;
// Calls entered while the thread runs (it watches for a quiet period).
extern std::atomic<unsigned long> g_calls;
void lock_calls();
void unlock_calls();
}  // namespace async_progress

// Held by each MPI entry point for its duration; nested entry points (an MPI function that
// calls another) take the lock once.
class CallGuard {
 public:
  CallGuard() {
    if (depth_++ == 0 && async_progress::g_active.load(std::memory_order_acquire)) {
      async_progress::g_calls.fetch_add(1, std::memory_order_relaxed);
      async_progress::lock_calls();
      held_ = true;
    }
  }
  ~CallGuard() {
    if (--depth_ == 0 && held_) {
      held_ = false;
      async_progress::unlock_calls();
    }
  }
  CallGuard(const CallGuard&) = delete;
  CallGuard& operator=(const CallGuard&) = delete;

  // The thread was started inside this call: this call now holds the lock it made.
  static void adopt() { held_ = true; }

 private:
  // initial-exec: a plain thread-pointer access, not a __tls_get_addr call, on every entry.
  __attribute__((tls_model("initial-exec"))) static thread_local int depth_;
  __attribute__((tls_model("initial-exec"))) static thread_local bool held_;
};

// One more / one fewer user of the thread (collective users call them on every member). The
// first starts it, the last stops it. Called inside an MPI call.
void async_progress_retain();
void async_progress_release();
// Stops it whatever the count (MPI_Finalize).
void async_progress_shutdown();

}  // namespace weft
