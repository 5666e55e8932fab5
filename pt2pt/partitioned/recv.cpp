// The receive side of partitioned communication: one receive per send partition, posted at each
// MPI_Start once the pairing is known, straight into the buffer (or the packed stream of a
// non-contiguous layout, unpacked per receive partition as it completes).
#include <algorithm>
#include <string>

#include "pt2pt/partitioned/matcher.hpp"
#include "runtime/world.hpp"

namespace weft::partitioned {

RecvSide::RecvSide(const Comm& comm, void* buf, int partitions, size_t count, const Datatype& type,
                   int source, int tag)
    : Side(comm, buf, partitions, count, type, source, tag) {
  status_.kind = source == MPI_PROC_NULL ? WeftRequestKind::kProcNull : WeftRequestKind::kRecv;
  status_.completion.sender_bits = match_bits::make_send(0, source, tag);
  status_.completion.bytes = total_bytes_;
}

RecvSide::~RecvSide() { matcher().remove(this); }

Control RecvSide::paired(const Control& setup, uint32_t channel) {
  paired_ = true;
  Control answer;
  answer.kind = Control::kAnswer;
  answer.context = context_;
  answer.sender_rank = setup.sender_rank;
  answer.tag = tag_;
  answer.send_id = setup.send_id;
  answer.receiver_rank = my_rank_;
  answer.partitions = uint64_t(partitions_);
  answer.bytes = total_bytes_;
  if (setup.bytes != total_bytes_ || channel == kNoChannel) {
    const int cls = setup.bytes > total_bytes_ ? MPI_ERR_TRUNCATE : MPI_ERR_OTHER;
    pairing_failed_ = Status::error(
        channel == kNoChannel ? MPI_ERR_INTERN : cls,
        channel == kNoChannel
            ? "more than " + std::to_string(kMaxChannels) + " partitioned receives at once"
            : "the partitioned receive of " + std::to_string(total_bytes_) + " bytes from rank " +
                  std::to_string(peer_) + " (tag " + std::to_string(tag_) +
                  ") was matched by a partitioned send of " + std::to_string(setup.bytes) +
                  " bytes: the type signatures differ");
    answer.channel = kNoChannel;
    if (in_round()) finish();
    return answer;
  }
  channel_ = channel;
  answer.channel = channel;
  const size_t send_partitions = size_t(setup.partitions);
  send_part_bytes_ = send_partitions == 0 ? 0 : total_bytes_ / send_partitions;
  received_.assign(send_partitions, Completion{});
  if (in_round()) post_round();
  return answer;
}

void RecvSide::post_round() {
  Transport& t = *world().transport;
  for (size_t i = 0; i < received_.size(); ++i) {
    received_[i] = Completion{};
    const size_t offset = i * send_part_bytes_;
    void* into = contiguous() ? contiguous_at(offset) : &staging_[offset];
    const uint64_t bits = data_bits(channel_, int64_t(i));
    const Status s = t.irecv(peer_world_, into, send_part_bytes_, bits, ~uint64_t{0}, &received_[i]);
    if (!s.ok()) {
      received_[i].done = true;
      if (outcome_.ok()) outcome_ = s;
    }
  }
}

Status RecvSide::restart() {
  delivered_.assign(size_t(partitions_), 0);
  if (!begin_round() || !pairing_failed_.ok()) {
    finish();
    return Status::success();
  }
  if (paired_) post_round();
  world().progress.activate(this);
  return Status::success();
}

bool RecvSide::send_partitions_done(size_t first, size_t last) const {
  for (size_t i = first; i <= last && i < received_.size(); ++i)
    if (!received_[i].done) return false;
  return true;
}

void RecvSide::deliver(size_t partition) {
  if (contiguous() || delivered_[partition]) return;
  delivered_[partition] = 1;
  const size_t first = partition * part_bytes_;
  type_->unpack_range(&staging_[first], size_t(partitions_) * count_, first, part_bytes_, buf_);
}

bool RecvSide::arrived(int partition) {
  if (!in_round()) return true;  // inactive, or the round's data is all in
  if (peer_ == MPI_PROC_NULL || part_bytes_ == 0) return true;
  if (!paired_) return false;
  const size_t first = size_t(partition) * part_bytes_;
  const size_t last = first + part_bytes_ - 1;
  if (!send_partitions_done(first / send_part_bytes_, last / send_part_bytes_)) return false;
  deliver(size_t(partition));
  return true;
}

unsigned RecvSide::advance() {
  if (finished_ || !paired_ || !send_partitions_done(0, received_.size())) return 0;
  for (const Completion& c : received_)
    if (c.error_class != MPI_SUCCESS && outcome_.ok())
      outcome_ = Status::error(c.error_class, "a partition's message failed in the transport");
  for (size_t p = 0; p < delivered_.size(); ++p) deliver(p);
  finish();
  return 1;
}

Status init_recv(const Comm& comm, void* buf, int partitions, size_t count, const Datatype& type,
                 int source, int tag, Request* r) {
  auto side = std::make_unique<RecvSide>(comm, buf, partitions, count, type, source, tag);
  if (source != MPI_PROC_NULL) matcher().add(side.get());
  hold(std::move(side), r);
  return Status::success();
}

RecvSide* recv_side(Request* r) {
  return r->kind == WeftRequestKind::kActivity ? dynamic_cast<RecvSide*>(r->activity) : nullptr;
}

}  // namespace weft::partitioned
