// MPI_Comm_idup and MPI_Comm_idup_with_info: the context agreement of comm_dup as an activity of
// nonblocking collectives.
// Round one ANDs the free masks of a window; the pair found is reserved where still free (a
// blocking communicator creation may have taken it meanwhile) and round two ANDs "reserved"
// flags: all set, the communicator is made; otherwise the reservations are dropped and it
// starts over. Its collectives run on a temporary communicator with the internal bit set, so
// they never meet the parent's own collectives, whatever else the ranks start meanwhile.
// Of an intercommunicator, each AND runs in two steps: over the local group (on its private
// pair's point-to-point context, as intercomm.cpp's own local collectives do), then an
// allreduce over the intercommunicator that gives each group the other's result; two pairs are
// agreed, one for the new intercommunicator and one for its local phases.
#include <algorithm>
#include <memory>

#include "coll/coll_op.hpp"
#include "runtime/comm/create.hpp"
#include "runtime/comm/info_objects.hpp"
#include "runtime/comm/intercomm.hpp"
#include "runtime/world.hpp"

namespace weft {
namespace {

class CommIdup final : public Activity {
 public:
  // `hints`: as finish_dup takes them; a given info object is a copy this activity owns.
  CommIdup(Comm& parent, DupHints hints, MPI_Comm* newcomm, Completion* report)
      : parent_(parent.handle), hints_(hints), newcomm_(newcomm), report_(report) {
    members_.world_ranks = parent.world_ranks;
    members_.rank = parent.rank;
    members_.size = parent.size;
    members_.context = parent.context;
    members_.internal = true;
    members_.errhandler = parent.errhandler;
    members_.session = parent.session;
    members_.topology = parent.topology;
    members_.name = parent.display_name() + " (MPI_Comm_idup)";
    members_.coll_seq = kIdupSeqBit | ((parent.coll_seq++ & 0x3fff) << 6);
    if (parent.is_inter()) {
      members_.remote_world_ranks = parent.remote_world_ranks;
      members_.local = std::make_shared<Comm>(*parent.local);
      members_.local->internal = true;
      local_ops_ = *parent.local;
      local_ops_.context = parent.local->context - 1;  // its collective context: local->context
      local_ops_.internal = true;
      local_ops_.coll_seq = members_.coll_seq;
      pairs_needed_ = 2;
    }
    start_mask_round();
  }
  ~CommIdup() override { drop_info(); }

  unsigned advance() override {
    if (finished_) return 0;
    const unsigned n = op_.advance();
    if (!op_.finished()) return n;
    if (Status s = op_.outcome(); !s.ok()) {
      finish(std::move(s));
    } else if (local_step_) {
      run_remote();
    } else if (confirming_) {
      on_confirmed();
    } else {
      on_mask();
    }
    return n + 1;
  }
  bool finished() const override { return finished_; }
  Status outcome() const override { return outcome_; }
  Status restart() override {
    return Status::error(MPI_ERR_REQUEST, "an MPI_Comm_idup request cannot be restarted");
  }

 private:
  // ANDs `n` words over every member (both groups of an intercommunicator), in place.
  void run(uint64_t* words, size_t n) {
    words_ = words;
    words_n_ = n;
    local_step_ = members_.is_inter();
    start(local_step_ ? local_ops_ : members_, bitwise_and_call(words, n));
  }

  // Of an intercommunicator, after the local AND: the remote group's AND, combined with it.
  void run_remote() {
    local_step_ = false;
    std::copy(words_, words_ + words_n_, local_and_);
    remote_step_ = true;
    coll::CallSpec spec = bitwise_and_call(words_, words_n_);
    spec.args.in_place = false;
    spec.binding.send = local_and_;
    start(members_, spec);
  }

  void start(Comm& comm, coll::CallSpec spec) {
    spec.args.rank = comm.rank;
    spec.args.size = comm.size;
    spec.args.remote_size = comm.remote_size();
    op_.prepare(comm, spec);
    op_.start();
  }

  // The AND of run() is complete in words_.
  void combine_remote() {
    if (!remote_step_) return;
    remote_step_ = false;
    for (size_t i = 0; i < words_n_; ++i) words_[i] &= local_and_[i];
  }

  void start_mask_round() {
    confirming_ = false;
    world().comms.context_ids().free_mask(window_, mask_);
    run(mask_, ContextIds::kWindowWords);
  }

  void on_mask() {
    combine_remote();
    const int found = lowest_pairs(window_, mask_, pairs_needed_, pairs_);
    if (found < pairs_needed_) {
      if (++window_ == ContextIds::kPairs / ContextIds::kWindowPairs) {
        return finish(Status::error(MPI_ERR_INTERN, "out of communicator context ids"));
      }
      return start_mask_round();
    }
    ContextIds& ids = world().comms.context_ids();
    reserved_ = std::all_of(pairs_, pairs_ + found, [&ids](uint32_t p) { return ids.is_free(p); });
    for (int i = 0; reserved_ && i < found; ++i) ids.take(pairs_[i]);
    confirming_ = true;
    flag_ = reserved_ ? 1 : 0;
    run(&flag_, 1);
  }

  void on_confirmed() {
    combine_remote();
    if (flag_ == 1) {
      *newcomm_ = members_.is_inter()
                      ? register_inter(members_.world_ranks, members_.remote_world_ranks, pairs_,
                                       origin_of(members_))
                      : register_comm(members_.world_ranks, pairs_[0], origin_of(members_));
      world().comms.find(*newcomm_)->topology = members_.topology;
      return finish(finish_dup(parent_, hints_, newcomm_));
    }
    for (int i = 0; reserved_ && i < pairs_needed_; ++i)
      world().comms.context_ids().release(pairs_[i]);
    window_ = 0;
    start_mask_round();
  }

  void drop_info() {
    if (hints_.info != MPI_INFO_NULL) (void)infos().free(hints_.info);
    hints_.info = MPI_INFO_NULL;
  }

  void finish(Status s) {
    drop_info();
    outcome_ = std::move(s);
    finished_ = true;
    report_->error_class = outcome_.error_class;
    report_->done = true;
  }

  Comm members_;
  Comm local_ops_;  // of an intercommunicator: its local group, for the local step
  coll::CollOp op_;
  MPI_Comm parent_;
  DupHints hints_;
  MPI_Comm* newcomm_;
  Completion* report_;
  uint64_t mask_[ContextIds::kWindowWords] = {};
  uint64_t local_and_[ContextIds::kWindowWords] = {};
  uint64_t flag_ = 0;
  uint64_t* words_ = nullptr;
  size_t words_n_ = 0;
  uint32_t window_ = 0, pairs_[2] = {};
  int pairs_needed_ = 1;
  bool reserved_ = false, confirming_ = false, finished_ = false;
  bool local_step_ = false, remote_step_ = false;
  Status outcome_;
};

}  // namespace

Status start_comm_idup(Comm& parent, DupHints hints, MPI_Comm* newcomm, Request** out) {
  // A given info object is copied now: the caller may free it at once.
  if (hints.info != MPI_INFO_NULL) WEFT_TRY(infos().dup(hints.info, &hints.info));
  Request* r = world().requests.acquire();
  r->kind = WeftRequestKind::kActivity;
  r->comm = parent.handle;
  auto* idup = new CommIdup(parent, hints, newcomm, &r->completion);
  r->activity = idup;
  idup->advance();
  if (!idup->finished()) world().progress.activate(idup);
  *out = r;
  return Status::success();
}

}  // namespace weft
