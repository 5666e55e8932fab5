// The I/O thread. Threads: the application's thread (holding the C boundary's call lock) queues
// jobs; the I/O thread alone runs them and calls PMPI_Grequest_complete; the queue and the
// per-descriptor counts are guarded by one mutex. A job is owned by the queue until it runs,
// then by its request, whose free_fn deletes it.
#include "io/background.hpp"

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "io/sieve.hpp"

namespace weft::io {
namespace {

struct Job {
  Target target;
  Staged staged;
  MPI_Request request = MPI_REQUEST_NULL;
  size_t memory = 0;
  int error = MPI_SUCCESS;
};

int query(void* state, MPI_Status* status) {
  const Job& j = *static_cast<Job*>(state);
  set_status(status, j.memory);
  status->MPI_ERROR = j.error;
  return j.error;
}
int release(void* state) {
  delete static_cast<Job*>(state);
  return MPI_SUCCESS;
}
int cancel(void*, int) { return MPI_SUCCESS; }  // a transfer under way is not cancelled

class Worker {
 public:
  ~Worker() {
    {
      std::lock_guard<std::mutex> g(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  void push(Job* j) {
    std::lock_guard<std::mutex> g(mu_);
    if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
    ++pending_[j->target.fd];
    queue_.push_back(j);
    cv_.notify_all();
  }

  void drain(int fd) {
    std::unique_lock<std::mutex> g(mu_);
    cv_.wait(g, [&] { return pending_[fd] == 0; });
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> g(mu_);
    for (;;) {
      cv_.wait(g, [&] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;
      Job* j = queue_.front();
      queue_.pop_front();
      const int fd = j->target.fd;
      g.unlock();
      run(*j);
      g.lock();
      --pending_[fd];
      cv_.notify_all();
    }
  }

  static void run(Job& j) {
    Staged& s = j.staged;
    size_t stream = 0;
    const Status st = move_independent(j.target, s.write, s.chunks, s.data, &stream);
    if (st.ok()) unstage(s, stream, &j.memory);
    j.error = st.ok() ? MPI_SUCCESS : st.error_class;
    PMPI_Grequest_complete(j.request);
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job*> queue_;
  std::map<int, int> pending_;
  bool stop_ = false;
  std::thread thread_;
};

Worker& worker() {
  static Worker w;
  return w;
}

}  // namespace

Status start_background(const File& f, Staged s, MPI_Request* request) {
  auto* j = new Job{target_of(f), std::move(s)};
  // A direct (unstaged) transfer points into the caller's memory; a staged one into the job's.
  if (!j->staged.direct && !j->staged.staging.empty()) j->staged.data = j->staged.staging.data();
  if (PMPI_Grequest_start(query, release, cancel, j, request) != MPI_SUCCESS) {
    delete j;
    return Status::error(MPI_ERR_INTERN, "could not make the request");
  }
  j->request = *request;
  worker().push(j);
  return Status::success();
}

void drain_background(int fd) { worker().drain(fd); }

}  // namespace weft::io
