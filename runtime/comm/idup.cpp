// MPI_Comm_idup and MPI_Comm_idup_with_info: the context agreement of comm_dup as an activity of
// nonblocking collectives.
// Round one ANDs the free masks of a window; the pair found is reserved where still free (a
// blocking communicator creation may have taken it meanwhile) and round two ANDs "reserved"
// flags: all set, the communicator is made; otherwise the reservations are dropped and it
// starts over. Its collectives run on a temporary communicator with the internal bit set, so
// they never meet the parent's own collectives, whatever else the ranks start meanwhile.
#include <memory>

#include "coll/coll_op.hpp"
#include "runtime/comm/create.hpp"
#include "runtime/comm/info_objects.hpp"
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
    members_.topology = parent.topology;
    members_.name = parent.display_name() + " (MPI_Comm_idup)";
    members_.coll_seq = kIdupSeqBit | ((parent.coll_seq++ & 0x3fff) << 6);
    start_mask_round();
  }
  ~CommIdup() override { drop_info(); }

  unsigned advance() override {
    if (finished_) return 0;
    const unsigned n = op_.advance();
    if (!op_.finished()) return n;
    if (Status s = op_.outcome(); !s.ok()) {
      finish(std::move(s));
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
  void run(uint64_t* words, size_t n) {
    coll::CallSpec spec = bitwise_and_call(words, n);
    spec.args.rank = members_.rank;
    spec.args.size = members_.size;
    op_.prepare(members_, spec);
    op_.start();
  }

  void start_mask_round() {
    confirming_ = false;
    world().comms.context_ids().free_mask(window_, mask_);
    run(mask_, ContextIds::kWindowWords);
  }

  void on_mask() {
    const int64_t found = lowest_free(window_, mask_);
    if (found < 0) {
      if (++window_ == ContextIds::kPairs / ContextIds::kWindowPairs) {
        return finish(Status::error(MPI_ERR_INTERN, "out of communicator context ids"));
      }
      return start_mask_round();
    }
    pair_ = uint32_t(found);
    ContextIds& ids = world().comms.context_ids();
    reserved_ = ids.is_free(pair_);
    if (reserved_) ids.take(pair_);
    confirming_ = true;
    flag_ = reserved_ ? 1 : 0;
    run(&flag_, 1);
  }

  void on_confirmed() {
    if (flag_ == 1) {
      *newcomm_ = register_comm(members_.world_ranks, pair_, members_.errhandler);
      world().comms.find(*newcomm_)->topology = members_.topology;
      return finish(finish_dup(parent_, hints_, newcomm_));
    }
    if (reserved_) world().comms.context_ids().release(pair_);
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
  coll::CollOp op_;
  MPI_Comm parent_;
  DupHints hints_;
  MPI_Comm* newcomm_;
  Completion* report_;
  uint64_t mask_[ContextIds::kWindowWords] = {};
  uint64_t flag_ = 0;
  uint32_t window_ = 0, pair_ = 0;
  bool reserved_ = false, confirming_ = false, finished_ = false;
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
