// One collective call in flight: its schedule, the executor running it, and the channel that
// tags its messages with the call's sequence number on the communicator's collective context.
#pragma once
#include <memory>
#include <vector>

#include "coll/coll.hpp"
#include "coll/node_region.hpp"
#include "runtime/activity.hpp"
#include "runtime/tools/counters.hpp"

namespace weft::coll {

// Messages of call `seq` on lane l carry tag (seq << kLaneBits | l), modulo the tag space. On an
// intercommunicator, peers below the local size are local ranks, reached on the local group's
// own context (Comm::local); the others are remote ranks (coll/algorithm.hpp inter_peer).
class CommChannel final : public Channel {
 public:
  void bind(const Comm* comm, uint32_t seq) {
    comm_ = comm;
    seq_ = seq;
    runs_ = 0;
  }
  // A run of the bound call begins (persistent calls run several times under one number).
  void begin_run() { ++runs_; }
  Status start_send(int peer, int lane, const void* buf, size_t bytes, Completion* c) override;
  Status start_recv(int peer, int lane, void* buf, size_t bytes, Completion* c) override;
  // Through the communicator's node region (coll/node_region.hpp), with the call's number.
  Status start_post(const void* buf, size_t bytes, int readers, RegionMove how,
                    Completion* c) override;
  Status start_fetch(int peer, size_t from, void* buf, size_t bytes, RegionMove how,
                     Completion* c) override;
  // Takes the region's next arrival number (NodeRegion::next_arrival) and arrives there.
  Status start_arrive(const void* src, size_t bytes, void* dst, Completion* c) override;
  unsigned poll_region() override;
  bool region_ready() const override;
  bool takes_device_memory(int peer, size_t bytes) const override;

 private:
  // A post, fetch or arrival that could not complete when started.
  struct RegionWait {
    bool post;
    int peer_or_readers;
    void* buf;
    size_t bytes;
    Completion* c;
    size_t from = kWholePost;  // a fetch's start in the post
    RegionMove how = {};
    bool published = false;  // a post by reference or an arrival: made, now waiting
    uint64_t arrival = 0;    // an arrival: its number (post and fetch: 0), bringing `data`
    const void* data = nullptr;
  };
  // Whether `w` has completed (making progress on it).
  bool try_region(RegionWait& w);
  bool try_post_reference(RegionWait& w);
  bool try_arrive(RegionWait& w);
  bool try_fetch(const RegionWait& w);
  // Completes `w` at once if it can, else keeps it for poll_region.
  Status start_region(RegionWait w);
  // The number in the node region of the run's post `which`: every rank's same run of the same
  // call has it.
  uint64_t region_call(int which) const {
    const uint64_t call = region_call_number(seq_, runs_);
    return which == 0 ? call : second_post(call);
  }

  struct Route {
    const Comm* comm;
    int rank;
  };
  Route route(int peer) const;
  int tag(int lane) const;
  const Comm* comm_ = nullptr;
  uint32_t seq_ = 0;
  uint32_t runs_ = 0;  // since bind
  std::vector<RegionWait> region_waits_;
};

class CallCache;

class CollOp final : public Activity {
 public:
  // Whether its schedule was built for calls with these arguments.
  bool prepared_for(const CollArgs& args) const {
    return algorithm_ != nullptr && args == spec_.args;
  }
  // Chooses the algorithm, builds and plans its schedule (unless it is prepared_for the call's
  // arguments: then both are kept), then binds the call. spec.args must be complete (rank, size,
  // segment_bytes).
  void prepare(Comm& comm, const CallSpec& spec);
  // Takes the call's buffers, reduction, datatypes and sequence number on `comm`, keeping the
  // schedule; it reports completion nowhere until report_to. Needs prepared_for(spec.args).
  void bind(Comm& comm, const CallSpec& spec);
  // Where to report completion (a request's Completion), or nullptr.
  void report_to(Completion* c) { report_ = c; }
  // The cache that lent it to a request, which release() gives it back to while it lives.
  void lent_by(const std::shared_ptr<CallCache>& cache) { home_ = cache; }
  // Begins a run; finished() may already hold when it returns.
  void start();
  // Bytes it keeps allocated between runs (scratch and staging buffers).
  size_t retained_bytes() const;

  unsigned advance() override;
  bool finished() const override { return finished_; }
  bool ready_without_messages() const override { return !finished_ && executor_.region_ready(); }
  // The first error: of the run, or of moving data to or from device memory around it.
  Status outcome() const override { return staging_.ok() ? executor_.status() : staging_; }
  Status restart() override;
  void release() override;

 private:
  void finish();
  void note_staging(Status s) {
    if (staging_.ok()) staging_ = std::move(s);
  }

  CallSpec spec_;
  const Algorithm* algorithm_ = nullptr;  // the one schedule_ was built by
  tools::Counter* calls_ = nullptr;       // its MPI_T call counter (none for intercommunicators)
  Schedule schedule_;
  Executor executor_;
  CommChannel channel_;
  Comm* comm_ = nullptr;              // kept alive while this runs (CommTable::retire)
  std::vector<unsigned char> stage_;  // in-place all-to-all: the input's copy
  std::vector<unsigned char> packed_send_, packed_recv_;  // non-contiguous datatypes
  Completion* report_ = nullptr;
  std::weak_ptr<CallCache> home_;
  Status staging_;  // a failed pack, unpack or copy of a device buffer in this run
  bool finished_ = true;
};

// Completes `spec`'s args, prepares `op` for it on `comm`, runs it and waits for its end.
Status run_to_completion(CollOp& op, Comm& comm, CallSpec& spec);

}  // namespace weft::coll
