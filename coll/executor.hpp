// Runs one rank's schedule without blocking: starts every step whose dependencies are complete
// (sends and receives through a Channel, reductions and copies at once), reaps finished
// messages, and keeps each peer's sends and receives in step order (coll/schedule.hpp).
// Blocking, nonblocking and persistent collectives all run through this; so does the unit-test
// simulator, with an in-memory Channel. Threading: one thread at a time, like the transport.
#pragma once
#include <cstdlib>
#include <memory>
#include <vector>

#include "coll/device_mirror.hpp"
#include "coll/device_run.hpp"
#include "coll/schedule.hpp"
#include "pt2pt/transport.hpp"
#include "runtime/op/op.hpp"
#include "runtime/status.hpp"

namespace weft::coll {

// Which of a rank's posts in the call a region step concerns, and whether it moves the data
// by reference (Step::lane and Step::by_reference).
struct RegionMove {
  int which = 0;
  bool by_reference = false;
};

// Where the executor's messages go: the communicator's collective context in the library,
// an in-memory matcher in the tests. Completions stay valid until they report done.
class Channel {
 public:
  virtual ~Channel() = default;
  virtual Status start_send(int peer, int lane, const void* buf, size_t bytes, Completion* c) = 0;
  virtual Status start_recv(int peer, int lane, void* buf, size_t bytes, Completion* c) = 0;
  // Node-region steps (coll/schedule.hpp): posting `bytes` of `buf` for `readers` fetches, and
  // fetching what `peer` posted into `buf` (c->bytes: what it posted), each as `how` says. A
  // channel without a region refuses them.
  virtual Status start_post(const void* buf, size_t bytes, int readers, RegionMove how,
                            Completion* c);
  // `from`: where in the post the bytes start, or kWholePost (coll/schedule.hpp).
  virtual Status start_fetch(int peer, size_t from, void* buf, size_t bytes, RegionMove how,
                             Completion* c);
  // An arrival (Schedule::arrive) bringing `bytes` of `src`: done once every rank of the call
  // has arrived, with each one's bytes at `dst` + rank·bytes (c->error_class MPI_ERR_TRUNCATE:
  // some rank brought another number of bytes).
  virtual Status start_arrive(const void* src, size_t bytes, void* dst, Completion* c);
  // Completes the posts and fetches that can now complete; returns how many did.
  virtual unsigned poll_region() { return 0; }
  // Whether poll_region would complete one now (read only).
  virtual bool region_ready() const { return false; }
  // Whether a send to or receive from `peer` of `bytes` may use GPU memory as it is (the
  // transport to that rank takes it); otherwise a device run stages it through host memory.
  virtual bool takes_device_memory(int /*peer*/, size_t /*bytes*/) const { return false; }
};

// The user's buffers behind Buf::kSend and Buf::kRecv, and whether they lie in GPU memory
// (then the run is a device run: coll/device_run.hpp).
struct Binding {
  const void* send = nullptr;
  void* recv = nullptr;
  bool send_on_device = false, recv_on_device = false;
  // Runs whose device data is at most this many bytes copy it whole to host memory and run on
  // the host (coll/device_mirror.hpp); larger ones are device runs.
  size_t device_mirror_limit = 0;
};

class Executor {
 public:
  // Works out the order of `schedule`'s steps; it must outlive every run that follows.
  void plan(const Schedule& schedule);
  // Runs the planned schedule from the beginning, starting what is ready at once. `reduction`
  // may be null when the schedule has no reduce step.
  void start(const Reduction* reduction, Binding binding, Channel* channel);
  // plan() then start().
  void start(const Schedule& schedule, const Reduction* reduction, Binding binding,
             Channel* channel) {
    plan(schedule);
    start(reduction, binding, channel);
  }
  // Starts ready steps and reaps finished messages; returns how many steps completed.
  unsigned advance();
  bool done() const { return completed_ == total_; }
  // Whether a post or fetch in flight could complete now (read only).
  bool region_ready() const {
    return uses_region_ && channel_ != nullptr && channel_->region_ready();
  }
  // The first error met (the run continues to the end so that no peer waits forever).
  const Status& status() const { return status_; }
  // Bytes of (host) scratch memory it keeps for the next run.
  size_t scratch_capacity() const { return scratch_capacity_; }

 private:
  void start_step(StepId id);
  void complete_step(StepId id);
  void release(StepId id);  // one of `id`'s prerequisites is met
  void check_received(const Step& step, const Completion& c);
  void start_transfer(StepId id, const Step& step);
  // An arrival (StepKind::kArrive), and its completion.
  void start_arrival(StepId id, const Step& step);
  void arrived(const Step& step, const Completion& c);
  void received(StepId id, const Step& step, const Completion& c);
  void fail(Status s);
  unsigned char* address(BufRef ref) const;

  const Schedule* schedule_ = nullptr;
  const Reduction* reduction_ = nullptr;
  Binding binding_;
  Channel* channel_ = nullptr;
  std::unique_ptr<unsigned char, decltype(&std::free)> scratch_{nullptr, &std::free};
  size_t scratch_capacity_ = 0;
  DeviceMirror mirror_;  // active while a small run's device data is mirrored on the host
  DeviceRun device_;     // active while the bound buffers are in GPU memory

  std::vector<uint32_t> initial_pending_;      // prerequisites per step, as planned
  std::vector<StepId> initial_ready_;          // the steps without any, in step order
  std::vector<uint32_t> pending_;              // unmet prerequisites per step in this run
  std::vector<uint32_t> fill_;                 // plan() scratch
  std::vector<StepId> last_send_, last_recv_;  // plan() scratch: per peer and lane
  std::vector<uint32_t> dependents_at_;        // CSR: dependents of step i are
  std::vector<StepId> dependents_;             //   dependents_[dependents_at_[i] .. [i+1])
  std::vector<StepId> order_next_;       // the next send to / receive from the same peer and lane
  std::vector<Completion> completions_;  // one per step (sends, receives, posts, fetches)
  std::vector<unsigned char> arrival_stage_;  // a device run's arrival: its bytes, all ranks'
  bool uses_region_ = false;                  // the schedule has posts or fetches
  std::vector<StepId> ready_, in_flight_;     // ready_ is a queue: ready_[ready_head_..]
  size_t ready_head_ = 0;
  size_t completed_ = 0, total_ = 0;
  Status status_;
};

}  // namespace weft::coll
