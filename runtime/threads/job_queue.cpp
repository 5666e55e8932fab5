// The queue of the library's own MPI-calling threads (job_queue.hpp).
#include "runtime/threads/job_queue.hpp"

#include "mpi.h"
#include "runtime/threads/library_threads.hpp"

namespace weft {
namespace {

// The callbacks of the request drain() waits on: it carries nothing.
int query_nothing(void*, MPI_Status* status) {
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  return MPI_SUCCESS;
}
int free_nothing(void*) { return MPI_SUCCESS; }
int cancel_nothing(void*, int) { return MPI_SUCCESS; }

}  // namespace

JobQueue::~JobQueue() {
  {
    std::lock_guard<std::mutex> g(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void JobQueue::push(std::function<void()> work) {
  library_threads::retain();
  std::lock_guard<std::mutex> g(mu_);
  if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
  queue_.push_back(std::move(work));
  ++unfinished_;
  cv_.notify_all();
}

Status JobQueue::drain() {
  {
    std::lock_guard<std::mutex> g(mu_);
    if (unfinished_ == 0) return Status::success();
  }
  MPI_Request done = MPI_REQUEST_NULL;
  if (PMPI_Grequest_start(query_nothing, free_nothing, cancel_nothing, nullptr, &done) !=
      MPI_SUCCESS)
    return Status::error(MPI_ERR_INTERN, "could not make a request to wait for a library thread");
  push([done] { PMPI_Grequest_complete(done); });
  if (PMPI_Wait(&done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
    return Status::error(MPI_ERR_INTERN, "could not wait for a library thread");
  return Status::success();
}

void JobQueue::loop() {
  std::unique_lock<std::mutex> g(mu_);
  for (;;) {
    cv_.wait(g, [&] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;
    {
      std::function<void()> work = std::move(queue_.front());
      queue_.pop_front();
      g.unlock();
      work();
    }  // what it held (buffers, datatype handles it frees) goes while calls still take the lock
    library_threads::release();
    g.lock();
    --unfinished_;
  }
}

}  // namespace weft
