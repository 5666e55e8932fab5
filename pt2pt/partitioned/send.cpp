// The send side of partitioned communication, and what both sides share: each partition goes
// out as its own message the moment it is marked ready and the receive's channel is known.
#include <string>

#include "pt2pt/partitioned/matcher.hpp"
#include "pt2pt/pt2pt.hpp"
#include "runtime/world.hpp"

namespace weft::partitioned {

Side::Side(const Comm& comm, void* buf, int partitions, size_t count, const Datatype& type,
           int peer, int tag)
    : comm_(comm.handle),
      context_(comm.context),
      my_rank_(comm.rank),
      peer_(peer),
      peer_world_(peer == MPI_PROC_NULL ? -1 : comm.peer_world_rank(peer)),
      tag_(tag),
      buf_(buf),
      partitions_(partitions),
      count_(count),
      type_(type.share()),
      part_bytes_(count * type.size()),
      total_bytes_(size_t(partitions) * count * type.size()) {
  if (total_bytes_ > 0 && !type.is_contiguous(size_t(partitions) * count))
    staging_.resize(total_bytes_);
}

Status Side::check_partition(long long partition, const char* arg) const {
  if (partition >= 0 && partition < partitions_) return Status::success();
  return Status::error(MPI_ERR_ARG, std::string("invalid partition ") + arg + "=" +
                                        std::to_string(partition) + " (the request has " +
                                        std::to_string(partitions_) + " partitions: 0.." +
                                        std::to_string(partitions_ - 1) + ")");
}

bool Side::begin_round() {
  finished_ = false;
  outcome_ = Status::success();
  return peer_ != MPI_PROC_NULL;
}

void Side::finish() {
  finished_ = true;
  if (outcome_.ok()) outcome_ = pairing_failed_;
  if (report_ == nullptr) return;
  report_->error_class = outcome_.error_class;
  report_->done = true;
}

void hold(std::unique_ptr<Side> side, Request* r) {
  side->report_to(&r->completion);
  r->kind = WeftRequestKind::kActivity;
  r->comm = side->comm();
  r->persistent = true;
  r->active = false;
  r->completion.done = true;  // inactive until MPI_Start
  r->activity = side.release();
}

SendSide::~SendSide() { matcher().remove(this); }

Control SendSide::setup(uint32_t send_id) const {
  Control c;
  c.kind = Control::kSetup;
  c.context = context_;
  c.sender_rank = my_rank_;
  c.tag = tag_;
  c.send_id = send_id;
  c.sender_world = world().kvs->job().rank;
  c.partitions = uint64_t(partitions_);
  c.bytes = total_bytes_;
  return c;
}

void SendSide::post(size_t partition) {
  const size_t offset = partition * part_bytes_;
  const void* from = contiguous() ? contiguous_at(offset) : &staging_[offset];
  const Status s =
      pt2pt::send_bits(peer_world_, from, part_bytes_, data_bits(channel_, int64_t(partition)),
                       false, &sent_[partition]);
  if (!s.ok()) {  // reported by the round's Wait/Test
    sent_[partition].done = true;
    if (outcome_.ok()) outcome_ = s;
  }
}

Status SendSide::ready(long long partition, const char* arg) {
  WEFT_TRY(check_partition(partition, arg));
  const size_t p = size_t(partition);
  if (ready_[p]) {
    return Status::error(MPI_ERR_REQUEST, "partition " + std::to_string(partition) +
                                              " was marked ready already in this round");
  }
  ready_[p] = 1;
  ++ready_count_;
  if (!contiguous())
    type_->pack_range(buf_, size_t(partitions_) * count_, p * part_bytes_, part_bytes_,
                      &staging_[p * part_bytes_]);
  if (answered_ && channel_ != kNoChannel) post(p);
  return Status::success();
}

void SendSide::answered(const Control& answer) {
  answered_ = true;
  channel_ = answer.channel;
  if (channel_ == kNoChannel) {
    const int cls = total_bytes_ > answer.bytes ? MPI_ERR_TRUNCATE : MPI_ERR_OTHER;
    pairing_failed_ =
        Status::error(cls, "the partitioned send of " + std::to_string(total_bytes_) +
                               " bytes to rank " + std::to_string(peer_) + " (tag " +
                               std::to_string(tag_) + ") was matched by a partitioned receive of " +
                               std::to_string(answer.bytes) + " bytes: the type signatures differ");
    return;
  }
  if (in_round()) {
    for (size_t p = 0; p < ready_.size(); ++p)
      if (ready_[p]) post(p);
  }
}

Status SendSide::restart() {
  ready_.assign(size_t(partitions_), 0);
  ready_count_ = 0;
  sent_.assign(size_t(partitions_), Completion{});
  if (!begin_round()) {
    finish();
    return Status::success();
  }
  world().progress.activate(this);
  return Status::success();
}

unsigned SendSide::advance() {
  if (finished_ || ready_count_ < size_t(partitions_) || !answered_) return 0;
  if (channel_ != kNoChannel) {
    for (const Completion& c : sent_)
      if (!c.done) return 0;
    for (const Completion& c : sent_)
      if (c.error_class != MPI_SUCCESS && outcome_.ok())
        outcome_ = Status::error(c.error_class, "a partition's message failed in the transport");
  }
  finish();
  return 1;
}

Status init_send(const Comm& comm, const void* buf, int partitions, size_t count,
                 const Datatype& type, int dest, int tag, Request* r) {
  auto side =
      std::make_unique<SendSide>(comm, const_cast<void*>(buf), partitions, count, type, dest, tag);
  if (dest != MPI_PROC_NULL) WEFT_TRY(matcher().add(side.get()));
  hold(std::move(side), r);
  return Status::success();
}

SendSide* send_side(Request* r) {
  return r->kind == WeftRequestKind::kActivity ? dynamic_cast<SendSide*>(r->activity) : nullptr;
}

}  // namespace weft::partitioned
