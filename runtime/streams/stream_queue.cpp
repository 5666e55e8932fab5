// The queue of one CUDA stream's enqueued calls (stream_queue.hpp).
#include "runtime/streams/stream_queue.hpp"

#include <algorithm>

#include "gpu/memory.hpp"
#include "mpi.h"

namespace weft::streams {
namespace {

// Where the stream and the queue's thread meet for one call: the stream's host function marks
// `reached` and waits for `done`, which the thread marks once the call's work has returned.
struct Meeting {
  std::mutex mu;
  std::condition_variable cv;
  bool reached = false, done = false;
};

// The host function holding the stream at a call's place (no CUDA call, no MPI call).
void hold_stream(void* data) {
  auto* meeting = static_cast<std::shared_ptr<Meeting>*>(data);
  {
    Meeting& m = **meeting;
    std::unique_lock<std::mutex> g(m.mu);
    m.reached = true;
    m.cv.notify_all();
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
    for (const Block& b : pool_->blocks) gpu->free_pinned(b.memory);
  }
}

Status StreamQueue::run_at_stream_point(const char* fn, std::function<int()> work,
                                        bool after_stream) {
  gpu::DeviceMemory* gpu = cuda();
  if (gpu == nullptr) return no_cuda();
  auto meeting = std::make_shared<Meeting>();
  auto* held = new std::shared_ptr<Meeting>(meeting);
  if (Status s = gpu->call_on_stream(stream_, hold_stream, held); !s.ok()) {
    delete held;
    return s;
  }
  jobs_.push([this, fn, meeting, work = std::move(work), after_stream] {
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
  });
  return Status::success();
}

Status StreamQueue::take_block(size_t bytes, void** block) {
  {
    std::lock_guard<std::mutex> g(pool_->mu);
    Block* best = nullptr;
    for (Block& b : pool_->blocks)
      if (!b.lent && b.bytes >= bytes && (best == nullptr || b.bytes < best->bytes)) best = &b;
    if (best != nullptr) {
      best->lent = true;
      *block = best->memory;
      return Status::success();
    }
  }
  gpu::DeviceMemory* gpu = cuda();
  if (gpu == nullptr) return no_cuda();
  void* made = gpu->allocate_pinned(std::max<size_t>(bytes, 1));
  if (made == nullptr)
    return Status::error(MPI_ERR_NO_MEM, "no pinned host memory for " + std::to_string(bytes) +
                                             " bytes of an enqueued call's data");
  std::lock_guard<std::mutex> g(pool_->mu);
  pool_->blocks.push_back({made, std::max<size_t>(bytes, 1), true});
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
