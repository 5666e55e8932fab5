// The process-wide call lock: the one lock that makes MPI_THREAD_MULTIPLE, the asynchronous
// progress thread and the library's own MPI-calling threads safe. Thread rules: while the lock
// is needed (the level is MPI_THREAD_MULTIPLE, the progress thread of runtime/async_progress.hpp
// runs, or a thread of runtime/threads/library_threads.hpp has work), every MPI entry point holds
// it for its duration (CallGuard, taken by WEFT_REQUIRE_RUNNING), so all library state (handle tables,
// request pool, progress engine, the UCX worker, which stays UCS_THREAD_MODE_SERIALIZED) is
// touched by the lock holder only. A call never keeps it across a blocking wait: under
// MPI_THREAD_MULTIPLE (or with library threads at work), Progress::wait_until lets go of it
// between polls (yield_turn) and while it blocks (block): one blocked thread, the driver, sleeps
// on the transport's event fd, the others on a condition variable of the lock, so waiting
// threads take turns driving progress and other threads enter the library meanwhile. A call that
// ends while threads are blocked wakes them (its work may have completed what they wait for), and
// so does a wait whose poll made progress. When the lock is not needed
// (MPI_THREAD_SINGLE/FUNNELED/SERIALIZED, no progress thread, no library thread at work) an
// entry point pays one thread-local increment and one load.
#pragma once
#include <atomic>
#include <functional>
#include <mutex>

#include "runtime/tools/events.hpp"

namespace weft {
class Transport;

namespace call_lock {
// Who needs calls to take the lock (bits of g_needed).
inline constexpr unsigned kAsyncThread = 1;     // the asynchronous progress thread runs
inline constexpr unsigned kMultiple = 2;        // MPI_THREAD_MULTIPLE was provided
inline constexpr unsigned kLibraryThreads = 4;  // a library thread that calls MPI has work
extern std::atomic<unsigned> g_needed;
// Calls entered while the lock is needed (the progress thread watches for a quiet period).
extern std::atomic<unsigned long> g_calls;

void need(unsigned who);
void no_longer_need(unsigned who);
// Whether several threads may be inside the library at once, taking turns with the lock:
// MPI_THREAD_MULTIPLE, or a library thread at work.
inline bool multiple() {
  return (g_needed.load(std::memory_order_relaxed) & (kMultiple | kLibraryThreads)) != 0;
}

std::mutex& mutex();
void lock();
// Ends a call's hold: wakes the blocked threads, if any, and lets go of the lock.
void unlock();

// With the lock held, in a wait that shares it: blocks until woken, a poll's worth of time
// (`ms`) at most, letting go of the lock meanwhile. The first thread to block calls `arm`
// (Progress::arm: nothing pending) and sleeps on `transport`'s event fd; the others wait on the
// lock's condition variable.
void block(Transport* transport, int ms, const std::function<bool()>& arm);
// With the lock held: a poll made progress, so the blocked threads look again.
void progressed();
}  // namespace call_lock

// Held by each MPI entry point for its duration; nested entry points (an MPI function that
// calls another) take the lock once.
class CallGuard {
 public:
  CallGuard() {
    if (depth_++ != 0) return;
    const unsigned needed = call_lock::g_needed.load(std::memory_order_acquire);
    if (needed == 0) return;
    if (needed & call_lock::kAsyncThread) call_lock::g_calls.fetch_add(1, std::memory_order_relaxed);
    call_lock::lock();
    held_ = true;
  }
  ~CallGuard() {
    if (--depth_ != 0) return;
    if (held_) {
      held_ = false;
      call_lock::unlock();
    }
    // MPI_T events whose callbacks could not run where they were raised run here.
    tools::end_of_call_events();
  }
  CallGuard(const CallGuard&) = delete;
  CallGuard& operator=(const CallGuard&) = delete;

  // Whether this thread's call holds the lock.
  static bool holds() { return held_; }
  // The lock was taken inside this call (the progress thread started): this call now holds it.
  static void adopt() { held_ = true; }
  // Whether a wait in this call must let other threads in: multiple() and the lock held.
  static bool shares() { return held_ && call_lock::multiple(); }
  // Lets threads that wait for the lock have it for a moment (lets go, yields the core, takes it
  // again); with none waiting, only yields the core if `yield_core`.
  static void yield_turn(bool yield_core = true);

 private:
  // initial-exec: a plain thread-pointer access, not a __tls_get_addr call, on every entry.
  __attribute__((tls_model("initial-exec"))) static thread_local int depth_;
  __attribute__((tls_model("initial-exec"))) static thread_local bool held_;
};

}  // namespace weft
