// The fake driver's streams (streams.hpp): a lane, its thread and its queue, per stream.
#include "streams.hpp"

#include <pthread.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace fake_cuda {

// One stream's queue, run in order on its own thread. Lanes are never freed (a destroyed
// stream's lane idles: work queued elsewhere may still wait on a mark of it); their threads end
// with the process.
class Lane {
 public:
  explicit Lane(bool blocking) : blocking_(blocking) {
    std::thread([this] { run(); }).detach();
  }
  bool blocking() const { return blocking_; }

  void push(std::function<CuResult()> work) {
    std::lock_guard<std::mutex> g(mu_);
    queue_.push_back(std::move(work));
    ++queued_;
    cv_.notify_all();
  }
  uint64_t queued() {
    std::lock_guard<std::mutex> g(mu_);
    return queued_;
  }
  // Waits until `ticket` pieces of work are done; returns the first failure since the last
  // wait that took it, taking it if `take_failure`.
  CuResult wait(uint64_t ticket, bool take_failure) {
    std::unique_lock<std::mutex> g(mu_);
    done_cv_.wait(g, [&] { return done_ >= ticket; });
    const CuResult failure = failure_;
    if (take_failure) failure_ = kSuccess;
    return failure;
  }

 private:
  void run() {
    std::unique_lock<std::mutex> g(mu_);
    for (;;) {
      cv_.wait(g, [&] { return !queue_.empty(); });
      std::function<CuResult()> work = std::move(queue_.front());
      queue_.pop_front();
      g.unlock();
      const CuResult e = work();
      g.lock();
      if (e != kSuccess && failure_ == kSuccess) failure_ = e;
      ++done_;
      done_cv_.notify_all();
    }
  }

  const bool blocking_;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  std::deque<std::function<CuResult()>> queue_;
  uint64_t queued_ = 0, done_ = 0;
  CuResult failure_ = kSuccess;  // the first failure since the last wait that took it
};

namespace {

// The special stream handles of cuda.h: CU_STREAM_LEGACY and CU_STREAM_PER_THREAD.
const CuStream kStreamLegacy = reinterpret_cast<CuStream>(uintptr_t{1});
const CuStream kStreamPerThread = reinterpret_cast<CuStream>(uintptr_t{2});

std::mutex g_lanes_mutex;
std::vector<Lane*> g_lanes;  // the made streams' lanes; guarded by g_lanes_mutex
Lane* g_legacy = nullptr;    // made once, with its fork handler

// A forked child has none of its parent's threads: it starts with a legacy stream of its own
// and no made streams (CUDA gives a child none of its parent's either).
void forget_parent_streams() {
  g_lanes.clear();
  g_legacy = new Lane(true);
}

Lane& legacy() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_legacy = new Lane(true);
    pthread_atfork(nullptr, nullptr, forget_parent_streams);
  });
  return *g_legacy;
}

bool is_legacy(CuStream stream) {
  return stream == nullptr || stream == kStreamLegacy || stream == kStreamPerThread;
}

Lane& lane_of(CuStream stream) {
  return is_legacy(stream) ? legacy() : *static_cast<Lane*>(stream);
}

// The points `work` queued on `lane` must wait for besides the lane's own earlier work: work
// on the legacy stream waits for the blocking streams' earlier work, and theirs for its.
std::vector<Mark> implicit_marks(Lane& lane) {
  std::vector<Mark> marks;
  if (&lane != &legacy()) {
    if (lane.blocking()) marks.push_back({&legacy(), legacy().queued()});
    return marks;
  }
  std::lock_guard<std::mutex> g(g_lanes_mutex);
  for (Lane* other : g_lanes)
    if (other->blocking()) marks.push_back({other, other->queued()});
  return marks;
}

}  // namespace

CuStream make_stream(bool blocking) {
  Lane* lane = new Lane(blocking);
  std::lock_guard<std::mutex> g(g_lanes_mutex);
  g_lanes.push_back(lane);
  return lane;
}

bool destroy_stream(CuStream stream) {
  Lane* lane = static_cast<Lane*>(stream);
  {
    std::lock_guard<std::mutex> g(g_lanes_mutex);
    auto it = g_lanes.begin();
    while (it != g_lanes.end() && *it != lane) ++it;
    if (it == g_lanes.end()) return false;
    g_lanes.erase(it);
  }
  lane->wait(lane->queued(), true);
  return true;
}

bool known_stream(CuStream stream) {
  if (is_legacy(stream)) return true;
  std::lock_guard<std::mutex> g(g_lanes_mutex);
  for (Lane* lane : g_lanes)
    if (lane == stream) return true;
  return false;
}

void enqueue(CuStream stream, std::function<CuResult()> work) {
  Lane& lane = lane_of(stream);
  std::vector<Mark> before = implicit_marks(lane);
  if (before.empty()) return lane.push(std::move(work));
  lane.push([before = std::move(before), work = std::move(work)] {
    for (const Mark& m : before) m.lane->wait(m.ticket, false);
    return work();
  });
}

Mark mark(CuStream stream) {
  Lane& lane = lane_of(stream);
  return {&lane, lane.queued()};
}

CuResult wait(const Mark& m) { return m.lane == nullptr ? kSuccess : m.lane->wait(m.ticket, true); }

CuResult wait_all() {
  std::vector<Mark> marks{mark(nullptr)};
  {
    std::lock_guard<std::mutex> g(g_lanes_mutex);
    for (Lane* lane : g_lanes) marks.push_back({lane, lane->queued()});
  }
  CuResult first = kSuccess;
  for (const Mark& m : marks)
    if (const CuResult e = wait(m); e != kSuccess && first == kSuccess) first = e;
  return first;
}

CuResult run_synchronously(std::function<CuResult()> work) {
  enqueue(nullptr, std::move(work));
  return wait(mark(nullptr));
}

}  // namespace fake_cuda
