// The asynchronous progress thread (runtime/async_progress.hpp).
#include "runtime/async_progress.hpp"

#include <poll.h>
#include <time.h>

#include <mutex>
#include <thread>

#include "runtime/config.hpp"
#include "runtime/world.hpp"

namespace weft {

namespace async_progress {
namespace {

using call_lock::g_calls;
std::thread g_thread;
std::atomic<bool> g_stop{false};
int g_users = 0;

// How long the application must stay out of MPI before the thread steps in: the delay a target
// computing outside MPI adds to its origins, and the thread's wake-up rate while the
// application calls MPI.
constexpr long kQuietNs = 200 * 1000;

void sleep_quiet_period() {
  timespec t{0, kQuietNs};
  nanosleep(&t, nullptr);
}

// Waits until a whole period passes with no MPI call entered, drives progress until nothing is
// left, arms the transport and sleeps on its event fd until traffic arrives, and again.
void run() {
  World& w = world();
  unsigned long seen = g_calls.load(std::memory_order_relaxed);
  for (;;) {
    sleep_quiet_period();
    if (g_stop.load(std::memory_order_acquire)) return;
    const unsigned long now = g_calls.load(std::memory_order_relaxed);
    if (now != seen) {  // the application is calling MPI, which drives progress itself
      seen = now;
      continue;
    }
    for (;;) {
      bool armed = false;
      {
        std::unique_lock<std::mutex> turn(call_lock::mutex(), std::try_to_lock);
        if (!turn.owns_lock()) break;  // a call is running
        if (g_stop.load(std::memory_order_acquire)) return;
        bool progressed = false;
        while (w.progress.poll() != 0) progressed = true;
        if (progressed) call_lock::progressed();  // threads blocked in calls look again
        armed = w.transport->arm();
      }
      if (!armed) continue;  // events arrived meanwhile
      pollfd pfd{w.transport->wait_fd(), POLLIN, 0};
      (void)::poll(&pfd, 1, 1000);
      if (g_stop.load(std::memory_order_acquire)) return;
      if (g_calls.load(std::memory_order_relaxed) != seen) break;  // calls resumed: step back
    }
    seen = g_calls.load(std::memory_order_relaxed);
  }
}

}  // namespace

}  // namespace async_progress

void async_progress_retain() {
  using namespace async_progress;
  if (g_users++ > 0 || setting_value("WEFT_ASYNC_PROGRESS") == "0") return;
  // Unless MPI_THREAD_MULTIPLE had this call take the lock, take it for the rest of the call.
  if (!CallGuard::holds()) {
    call_lock::lock();
    CallGuard::adopt();
  }
  g_stop.store(false);
  call_lock::need(call_lock::kAsyncThread);
  g_thread = std::thread(run);
}

void async_progress_release() {
  using namespace async_progress;
  if (g_users == 0 || --g_users > 0) return;
  async_progress_shutdown();
}

void async_progress_shutdown() {
  using namespace async_progress;
  g_users = 0;
  if (!g_thread.joinable()) return;
  // This call holds the lock; the thread may be waiting for it. Let it through to see the stop.
  g_stop.store(true, std::memory_order_release);
  world().transport->wake();
  call_lock::mutex().unlock();
  g_thread.join();
  call_lock::lock();  // released again when this call's guard ends
  call_lock::no_longer_need(call_lock::kAsyncThread);
}

}  // namespace weft
