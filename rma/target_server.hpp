// The target side of the active-message path (rma/messages.hpp): an activity of the progress
// engine that takes the requests sent to this process on a window's communicator, in arrival
// order, applies them to this process's window memory (under the same lock and accumulate
// mutex that origins on this node take directly) and answers those that need it. It runs
// whenever this process is inside any MPI call. In a dynamic window it applies requests only
// inside attached regions, GPU memory with the device's copies.
#pragma once
#include <deque>
#include <map>
#include <memory>
#include <vector>

#include "rma/messages.hpp"
#include "rma/window.hpp"
#include "runtime/activity.hpp"

namespace weft::rma {

class TargetServer final : public Activity {
 public:
  explicit TargetServer(Window& w);
  ~TargetServer() override;
  unsigned advance() override;
  bool finished() const override { return stopped_; }
  Status outcome() const override { return Status::success(); }
  Status restart() override { return Status::success(); }
  void stop() { stopped_ = true; }

 private:
  struct Arrival {
    Request* request;
    std::unique_ptr<unsigned char[]> message;
    size_t length;
    int origin;
  };
  struct LockWait {
    int origin;
    bool exclusive;
  };
  struct Reply {
    Request* request;
    std::unique_ptr<unsigned char[]> data;
  };

  // Starts receiving every request that has arrived; returns how many.
  unsigned take_arrivals();
  void serve(const Arrival& a);
  // Leaves a request outside the dynamic window's attached memory, [first, end), unapplied;
  // one that expects an answer gets zeros. The origin learns of it from the SyncAnswer of its
  // next flush or unlock.
  void refuse(const Arrival& a, const RequestHeader& h, size_t bytes, uint64_t first, uint64_t end);
  void answer(int origin, std::unique_ptr<unsigned char[]> data, size_t bytes);
  // Answers a flush or unlock of `origin` with its refusals since the last such answer.
  void answer_sync(int origin);

  Window& w_;
  Target self_;         // this process's memory at its own addresses
  Target self_device_;  // the same, GPU memory (a dynamic window's attached region)
  std::deque<Arrival> arrivals_;
  std::deque<LockWait> lock_waits_;
  std::vector<Reply> replies_;
  std::map<int, SyncAnswer> refused_;  // by origin, since its last flush or unlock
  bool stopped_ = false;
};

}  // namespace weft::rma
