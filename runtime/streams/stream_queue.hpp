// The work of one CUDA stream's enqueued calls (MPIX_*_enqueue on a communicator bound to an
// MPIX_Stream made from a cudaStream_t). A call queues its MPI work (PMPI calls) on a thread of
// the queue's own (runtime/threads/job_queue.hpp) and a host function on the CUDA stream at the
// call's place, which holds the stream there until the work is done: the stream's later work
// sees the result, and the calling thread returns at once. The stream waits for the work on a
// pinned word the thread advances (cuStreamWaitValue32), holding no thread meanwhile; where
// that cannot be had, a second host function waits. Device data moves through pinned
// host blocks, with copies queued on the stream, so the thread's PMPI calls only ever see host
// memory: while a host function holds the stream, anything that waits for the device (a
// cuMemFree, Weft's own stream behind the legacy stream) would deadlock, and Weft's device
// paths never run there.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpu/memory.hpp"
#include "runtime/status.hpp"
#include "runtime/threads/job_queue.hpp"

namespace weft::streams {

class StreamQueue : public std::enable_shared_from_this<StreamQueue> {
 public:
  explicit StreamQueue(void* cuda_stream);
  // Frees the blocks: drain() first.
  ~StreamQueue();
  StreamQueue(const StreamQueue&) = delete;
  StreamQueue& operator=(const StreamQueue&) = delete;
  void* cuda_stream() const { return stream_; }

  // Queues `work` at this point of the stream for the call `fn`: the stream's later work waits
  // until it has returned. With `after_stream`, it starts once the stream's earlier work is done
  // (it reads what that work wrote, or writes where that work may read); without, as soon as
  // the queue's earlier work is done. A result other than MPI_SUCCESS is kept (take_failure).
  Status run_at_stream_point(const char* fn, std::function<int()> work, bool after_stream);
  // A pinned host block (`device`: a device memory block) of at least `bytes`, the caller's
  // until release_at_stream_point.
  Status take_block(size_t bytes, void** block, bool device = false);
  // Queues a copy on the stream.
  Status copy(void* dst, const void* src, size_t bytes);
  // Gives the block back once the stream's work queued so far is done.
  Status release_at_stream_point(void* block);
  // Waits for the queued work (in PMPI_Wait: the call lock is shared meanwhile), then for the
  // stream.
  Status drain();
  // Runs `work` on the queue's thread after the work queued so far (not at a point of the
  // stream), waiting for it as drain() does; returns what it returned.
  Status run_in_order(std::function<Status()> work);
  // The first failure of the queued work since the last call, naming the call; else success.
  Status take_failure();

  struct Meeting;

 private:
  // Queues on the stream what holds it until the work of call `ticket` is done: a wait on
  // done_word_, or else a host function that waits for `meeting`.
  Status hold_until_done(gpu::DeviceMemory& gpu, const std::shared_ptr<Meeting>& meeting,
                         uint32_t ticket);

  struct Block {
    void* memory;
    size_t bytes;
    bool lent;
    bool device;
  };
  // The blocks, shared with the host functions that give them back.
  struct Pool {
    std::mutex mu;
    std::vector<Block> blocks;
  };

  void* stream_;
  uint32_t issued_ = 0;            // calls queued (their tickets are 1, 2, ...)
  uint32_t* done_word_ = nullptr;  // pinned: the last ticket done, which the stream waits on
  bool stream_waits_ = true;       // until the driver or device turns stream waits down
  std::shared_ptr<Pool> pool_ = std::make_shared<Pool>();
  std::mutex failure_mu_;
  std::string failure_;  // "MPIX_Send_enqueue: <error string>", the first since taken
  int failure_class_ = 0;
  JobQueue jobs_;  // last: its destructor waits for the work, which uses the rest
};

// Drains every queue (MPI_Finalize).
Status drain_all();

}  // namespace weft::streams
