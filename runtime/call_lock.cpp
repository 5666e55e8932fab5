// The call lock and how waiting threads take turns with it (runtime/call_lock.hpp).
#include "runtime/call_lock.hpp"

#include <poll.h>
#include <sched.h>

#include <chrono>
#include <condition_variable>

#include "pt2pt/transport.hpp"
#include "runtime/world.hpp"

namespace weft {

__attribute__((tls_model("initial-exec"))) thread_local int CallGuard::depth_ = 0;
__attribute__((tls_model("initial-exec"))) thread_local bool CallGuard::held_ = false;

namespace call_lock {

std::atomic<unsigned> g_needed{0};
std::atomic<unsigned long> g_calls{0};

namespace {
std::mutex g_lock;
std::atomic<int> g_wanted{0};  // threads waiting in lock()
// The rest is guarded by g_lock.
std::condition_variable g_turn;
int g_waiting = 0;             // threads waiting on g_turn
bool g_driver = false;         // a thread sleeps on the transport's event fd
Transport* g_driven = nullptr;  // the transport it sleeps on

// With the lock held: everything blocked looks again.
void wake_blocked() {
  if (g_waiting > 0) g_turn.notify_all();
  if (g_driver) g_driven->wake();
}
}  // namespace

void need(unsigned who) { g_needed.fetch_or(who, std::memory_order_acq_rel); }
void no_longer_need(unsigned who) { g_needed.fetch_and(~who, std::memory_order_acq_rel); }

std::mutex& mutex() { return g_lock; }
void lock() {
  if (g_lock.try_lock()) return;
  g_wanted.fetch_add(1, std::memory_order_relaxed);
  g_lock.lock();
  g_wanted.fetch_sub(1, std::memory_order_relaxed);
}

void unlock() {
  wake_blocked();
  g_lock.unlock();
}

void block(Transport* transport, int ms, const std::function<bool()>& arm) {
  if (g_driver) {
    ++g_waiting;
    std::unique_lock<std::mutex> held(g_lock, std::adopt_lock);
    (void)g_turn.wait_for(held, std::chrono::milliseconds(ms));
    held.release();
    --g_waiting;
    return;
  }
  if (!arm()) return;  // events are pending: poll again
  g_driver = true;
  g_driven = transport;
  g_lock.unlock();
  pollfd pfd{transport->wait_fd(), POLLIN, 0};
  (void)::poll(&pfd, 1, ms);
  lock();
  g_driver = false;
  if (g_waiting > 0) g_turn.notify_all();  // one of them may drive now
}

void progressed() { wake_blocked(); }

}  // namespace call_lock

void CallGuard::yield_turn(bool yield_core) {
  if (!held_ || call_lock::g_wanted.load(std::memory_order_relaxed) == 0) {
    if (yield_core) sched_yield();
    return;
  }
  call_lock::g_lock.unlock();
  sched_yield();
  call_lock::lock();
}

}  // namespace weft
