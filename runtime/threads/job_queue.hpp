// A thread of the library's own and the work queued for it, run first in, first out: io/'s I/O
// thread of independent nonblocking accesses (one per process) and collective thread of each
// file with nonblocking or split collective accesses, and the thread of each MPIX_Stream's
// enqueued calls (runtime/streams/). Threads: push and drain are called by the
// application's thread inside an MPI call; the queue's thread runs the work, which may call
// PMPI functions: from push until the work has run the call lock is needed
// (runtime/threads/library_threads.hpp), so those calls and the application's take turns.
#pragma once
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "runtime/status.hpp"

namespace weft {

class JobQueue {
 public:
  JobQueue() = default;
  JobQueue(const JobQueue&) = delete;
  JobQueue& operator=(const JobQueue&) = delete;
  // Stops the thread once the queue is empty (the work queued must be able to finish).
  ~JobQueue();

  // Queues `work`; the thread starts with the first.
  void push(std::function<void()> work);
  // Returns once everything queued so far has run: waits in PMPI_Wait (on a request the queue's
  // thread completes after the rest), so the application's thread drives progress meanwhile and
  // lets the queue's thread take the call lock.
  Status drain();

 private:
  void loop();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;  // guarded by mu_
  int unfinished_ = 0;                       // queued or running; guarded by mu_
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace weft
