// The queue of one CUDA stream's enqueued calls (stream_queue.hpp).
#include "runtime/streams/stream_queue.hpp"

#include <algorithm>

#include "gpu/memory.hpp"
#include "mpi.h"

namespace weft::streams {

// Where the stream and the queue's thread meet for one call: a host function on the stream
// marks `reached`; the thread marks `done` once the call's work has returned.
struct StreamQueue::Meeting {
  std::mutex mu;
  std::condition_variable cv;
  bool reached = false, done = false;
};

namespace {

using Meeting = StreamQueue::Meeting;

// The host function that tells the queue's thread the stream got to a call (returns at once).
void mark_reached(void* data) {
  auto* meeting = static_cast<std::shared_ptr<Meeting>*>(data);
  {
    Meeting& m = **meeting;
    std::lock_guard<std::mutex> g(m.mu);
    m.reached = true;
    m.cv.notify_all();
  }
  delete meeting;
}

// The host function that holds the stream until the call's work is done, where the stream
// cannot wait on memory (no CUDA call, no MPI call; it keeps a thread of the driver meanwhile).
void wait_until_done(void* data) {
  auto* meeting = static_cast<std::shared_ptr<Meeting>*>(data);
  {
    Meeting& m = **meeting;
    std::unique_lock<std::mutex> g(m.mu);
    m.cv.wait(g, [&] { return m.done; });
  }
  delete meeting;
}

std::mutex g_live_mutex;
std::vector<StreamQueue*> g_live;  // every queue not yet destroyed

gpu::DeviceMemory* cuda() { return gpu::device_memory(); }

Status no_cuda() { return Status::error(MPI_ERR_OTHER, "CUDA is not in use in this process"); }

}  // namespace

StreamQueue::StreamQueue(void* cuda_stream) : stream_(cuda_stream) {
  std::lock_guard<std::mutex> g(g_live_mutex);
  g_live.push_back(this);
}

StreamQueue::~StreamQueue() {
  {
    std::lock_guard<std::mutex> g(g_live_mutex);
    g_live.erase(std::find(g_live.begin(), g_live.end(), this));
  }
  if (gpu::DeviceMemory* gpu = cuda()) {
    for (const Block& b : pool_->blocks)
      b.device ? gpu->free_device(b.memory) : gpu->free_pinned(b.memory);
    if (done_word_ != nullptr) gpu->free_pinned(done_word_);
  }
}

Status StreamQueue::hold_until_done(gpu::DeviceMemory& gpu, const std::shared_ptr<Meeting>& meeting,
                                    uint32_t ticket) {
  if (stream_waits_ && done_word_ == nullptr) {
    done_word_ = static_cast<uint32_t*>(gpu.allocate_pinned(sizeof *done_word_));
    if (done_word_ != nullptr) *done_word_ = ticket - 1;
    stream_waits_ = done_word_ != nullptr;
  }
  if (stream_waits_) {
    const Status s = gpu.wait_on_stream(stream_, done_word_, ticket);
    if (s.ok() || s.error_class != MPI_ERR_UNSUPPORTED_OPERATION) return s;
    stream_waits_ = false;  // held by host functions from now on
  }
  auto* held = new std::shared_ptr<Meeting>(meeting);
  const Status s = gpu.call_on_stream(stream_, wait_until_done, held);
  if (!s.ok()) delete held;
  return s;
}

Status StreamQueue::run_at_stream_point(const char* fn, std::function<int()> work,
                                        bool after_stream) {
  gpu::DeviceMemory* gpu = cuda();
  if (gpu == nullptr) return no_cuda();
  auto meeting = std::make_shared<Meeting>();
  auto* reached = new std::shared_ptr<Meeting>(meeting);
  if (Status s = gpu->call_on_stream(stream_, mark_reached, reached); !s.ok()) {
    delete reached;
    return s;
  }
  const uint32_t ticket = ++issued_;
  WEFT_TRY(hold_until_done(*gpu, meeting, ticket));
  jobs_.push([this, fn, meeting, work = std::move(work), after_stream, ticket] {
    if (after_stream) {
      std::unique_lock<std::mutex> g(meeting->mu);
      meeting->cv.wait(g, [&] { return meeting->reached; });
    }
    gpu::NoDeviceWaits holding_the_stream;
    const int rc = work();
    if (rc != MPI_SUCCESS) {
      char text[MPI_MAX_ERROR_STRING] = "";
      int length = 0;
      PMPI_Error_string(rc, text, &length);
      int error_class = MPI_ERR_OTHER;
      PMPI_Error_class(rc, &error_class);
      std::lock_guard<std::mutex> g(failure_mu_);
      if (failure_.empty()) {
        failure_ = std::string(fn) + ": " + text;
        failure_class_ = error_class;
      }
    }
    std::lock_guard<std::mutex> g(meeting->mu);
    meeting->done = true;
    meeting->cv.notify_all();
    // Tickets are done in order: the stream's wait for this one, and those before it, ends.
    if (done_word_ != nullptr) __atomic_store_n(done_word_, ticket, __ATOMIC_RELEASE);
  });
  return Status::success();
}

Status StreamQueue::take_block(size_t bytes, void** block, bool device) {
  {
    std::lock_guard<std::mutex> g(pool_->mu);
    Block* best = nullptr;
    for (Block& b : pool_->blocks)
      if (!b.lent && b.device == device && b.bytes >= bytes &&
          (best == nullptr || b.bytes < best->bytes))
        best = &b;
    if (best != nullptr) {
      best->lent = true;
      *block = best->memory;
      return Status::success();
    }
  }
  gpu::DeviceMemory* gpu = cuda();
  if (gpu == nullptr) return no_cuda();
  const size_t size = std::max<size_t>(bytes, 1);
  void* made = device ? gpu->allocate_device(size) : gpu->allocate_pinned(size);
  if (made == nullptr)
    return Status::error(MPI_ERR_NO_MEM, std::string("no ") + (device ? "device" : "pinned host") +
                                             " memory for " + std::to_string(bytes) +
                                             " bytes of an enqueued call's data");
  std::lock_guard<std::mutex> g(pool_->mu);
  pool_->blocks.push_back({made, size, true, device});
  *block = made;
  return Status::success();
}

Status StreamQueue::copy(void* dst, const void* src, size_t bytes) {
  gpu::DeviceMemory* gpu = cuda();
  return gpu == nullptr ? no_cuda() : gpu->copy_on_stream(stream_, dst, src, bytes);
}

Status StreamQueue::release_at_stream_point(void* block) {
  gpu::DeviceMemory* gpu = cuda();
  if (gpu == nullptr) return no_cuda();
  struct Release {
    std::shared_ptr<Pool> pool;
    void* block;
  };
  auto* release = new Release{pool_, block};
  const Status s = gpu->call_on_stream(
      stream_,
      [](void* data) {
        auto* r = static_cast<Release*>(data);
        {
          std::lock_guard<std::mutex> g(r->pool->mu);
          for (Block& b : r->pool->blocks)
            if (b.memory == r->block) b.lent = false;
        }
        delete r;
      },
      release);
  if (!s.ok()) delete release;
  return s;
}

Status StreamQueue::drain() {
  WEFT_TRY(jobs_.drain());
  gpu::DeviceMemory* gpu = cuda();
  return gpu == nullptr ? no_cuda() : gpu->synchronize(stream_);
}

Status StreamQueue::run_in_order(std::function<Status()> work) {
  auto result = std::make_shared<Status>();
  jobs_.push([result, work = std::move(work)] { *result = work(); });
  WEFT_TRY(jobs_.drain());
  return *result;
}

Status StreamQueue::take_failure() {
  std::lock_guard<std::mutex> g(failure_mu_);
  if (failure_.empty()) return Status::success();
  const Status s = Status::error(failure_class_, "an earlier enqueued call failed: " + failure_);
  failure_.clear();
  return s;
}

Status drain_all() {
  std::vector<StreamQueue*> live;
  {
    std::lock_guard<std::mutex> g(g_live_mutex);
    live = g_live;
  }
  for (StreamQueue* q : live) WEFT_TRY(q->drain());
  return Status::success();
}

}  // namespace weft::streams
