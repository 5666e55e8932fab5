// The one progress engine: drives the transport and the activities in flight (collective
// schedules), and releases orphaned requests. A wait spins for a bounded time (yielding the core
// between polls when ranks outnumber cores), then blocks on the transport's event fd
// (docs/platform-facts.md §3.4). Under MPI_THREAD_MULTIPLE a wait shares the call lock with
// the process's other threads (runtime/call_lock.hpp): it holds it only around each poll.
#pragma once
#include <poll.h>
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <vector>

#include "pt2pt/transport.hpp"
#include "runtime/activity.hpp"
#include "runtime/call_lock.hpp"
#include "runtime/request.hpp"
#include "runtime/tools/counters.hpp"
#include "runtime/tools/events.hpp"
#include "runtime/wait_state.hpp"

namespace weft {

class Progress {
 public:
  // `yield`: give the core away between polls while spinning (ranks outnumber cores).
  void configure(Transport* transport, RequestPool* pool, long spin_us, bool yield, int poll_ms) {
    transport_ = transport;
    pool_ = pool;
    spin_ns_ = spin_us * 1000;
    yield_ = yield;
    poll_ms_ = poll_ms;
  }

  // Drives `a` from now on, until it reports finished.
  void activate(Activity* a) { active_.push_back(a); }

  // One pass over everything that needs driving; returns how much happened.
  unsigned poll() {
    unsigned n = transport_->progress();
    if (!active_.empty()) {
      for (Activity* a : active_) n += a->advance();
      std::erase_if(active_, [](Activity* a) { return a->finished(); });
    }
    pool_->sweep_orphans();
    return n;
  }

  // Drives progress until done() holds.
  template <typename Done>
  void wait_until(Done done) {
    wait_until(done, [] { return false; });
  }
  // The same for a wait that is not an activity but, like one, may wait for a post in a node
  // region: ready() (read only) says, once this rank is marked as sleeping, whether done() could
  // now go further without a message (see arm()).
  template <typename Done, typename Ready>
  void wait_until(Done done, Ready ready) {
    if (done()) return;
    if (CallGuard::shares()) return wait_sharing(done, ready);
    if (spin_ns_ > 0) {
      // The clock is first read after 64 polls: most waits end sooner, and a read can cost as
      // much as a message on a virtual machine.
      long start = 0;
      for (unsigned i = 1;; ++i) {
        poll();
        if (done()) return;
        if (yield_) sched_yield();
        if ((i & 63) != 0) continue;
        if (start == 0)
          start = now_ns();
        else if (now_ns() - start > spin_ns_)
          break;
      }
    }
    wait_state::blocking_begins();
    const long blocked_since = now_ns();
    while (!done()) {
      if (poll() != 0) continue;
      if (done()) break;
      if (!arm(ready)) continue;
      pollfd pfd{transport_->wait_fd(), POLLIN, 0};
      (void)::poll(&pfd, 1, poll_ms_);
    }
    blocking_ended(blocked_since);
  }

 private:
  // wait_until under MPI_THREAD_MULTIPLE: polls holding the call lock, lets it go between polls
  // while spinning and while blocked; a poll that made progress wakes the other blocked threads
  // (it may have completed what they wait for).
  template <typename Done, typename Ready>
  void wait_sharing(Done done, Ready ready) {
    const long start = now_ns();
    for (unsigned i = 1;; ++i) {
      if (poll() != 0) call_lock::progressed();
      if (done()) return;
      if ((i & 63) == 0 && now_ns() - start > spin_ns_) break;
      CallGuard::yield_turn(yield_);
    }
    wait_state::blocking_begins();
    const long blocked_since = now_ns();
    while (!done()) {
      if (poll() != 0) {
        call_lock::progressed();
        continue;
      }
      if (done()) break;
      call_lock::block(transport_, poll_ms_, [this, &ready] { return arm(ready); });
    }
    blocking_ended(blocked_since);
  }

  // Prepares to block: true if nothing is pending. After the transport has marked this rank
  // as sleeping, the waiter (`ready`) and the activities look once more (read only): a collective
  // may wait for a post in a node region (coll/node_region.hpp), whose poster rings the doorbell
  // only if it saw the mark. (Advancing them here could poll the transport, which takes the mark
  // away.)
  template <typename Ready>
  bool arm(Ready ready) {
    if (!transport_->arm() || ready()) return false;
    for (const Activity* a : active_)
      if (a->ready_without_messages()) return false;
    return true;
  }

  // The blocking part of a wait that began at `since` is over: counted, announced, forgotten.
  static void blocking_ended(long since) {
    const long blocked_ns = now_ns() - since;
    tools::g_counters.blocked_ns.add(uint64_t(blocked_ns));
    tools::wait_blocked_event(blocked_ns);
    wait_state::blocking_ends();
  }

  static long now_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
  }

  Transport* transport_ = nullptr;
  RequestPool* pool_ = nullptr;
  std::vector<Activity*> active_;
  long spin_ns_ = 0;
  bool yield_ = false;
  int poll_ms_ = 100;
};

}  // namespace weft
