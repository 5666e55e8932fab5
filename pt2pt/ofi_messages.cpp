// The libfabric transport's tagged messages (pt2pt/ofi_transport_impl.hpp). Facts relied on
// (docs/platform-facts.md §5): a tagged receive ignores the bits set in `ignore` (UCX's mask
// inverted); FI_PEEK answers through the completion queue (found, or -FI_ENOMSG), FI_CLAIM
// receives the message peeked with the same context; fi_cancel ends a receive with
// -FI_ECANCELED. Every message carries 8 bytes of remote CQ data (0 for most), so that a probe's
// remote data is never stale (ofi_rxm 1.17 reports it without the FI_REMOTE_CQ_DATA flag, and
// a previous message's where the message had none). libfabric has no synchronous send: one
// carries kSyncFlag, its sender and its operation in that data, and the receiver answers with a zero-byte message on the
// transport's reserved context (pt2pt/match_bits.hpp kTransportContext). Messages larger than
// the provider carries whole go as pieces (pt2pt/ofi_segments.cpp).
// ofi_rxm 1.17 stops delivering a peer's messages after it truncated one of its eager messages
// (at most its buffer size, FI_OFI_RXM_BUFFER_SIZE, 16 KiB by default); larger ones truncate
// cleanly. A receive shorter than that buffer therefore lands in a bounce buffer of that size,
// kept in its pooled operation, and Weft truncates and copies it itself.
#include <rdma/fi_tagged.h>

#include <algorithm>
#include <cstring>

#include "gpu/memory.hpp"
#include "mpi.h"
#include "pt2pt/match_bits.hpp"
#include "pt2pt/ofi_hmem.hpp"
#include "pt2pt/ofi_transport_impl.hpp"
#include "runtime/tools/counters.hpp"

namespace weft::ofi {
namespace {

// The acknowledgement of a synchronous send; its remote data is the sender's operation slot.
constexpr uint64_t kAckBits =
    match_bits::kInternalBit | (uint64_t{match_bits::kTransportContext} << match_bits::kContextShift);

}  // namespace

Status OfiTransport::isend(int peer, const void* buf, size_t len, uint64_t bits, bool sync,
                           Completion* c) {
  tools::g_counters.ofi_messages_sent.add(1);
  tools::g_counters.ofi_bytes_sent.add(len);
  // A synchronous send to another job goes as pieces too: its receiver could not name it to
  // acknowledge it (the rank in the remote data is of the sender's job), but grants reach it.
  if (len > piece_size_ || (sync && peer >= job_size_))
    return send_segmented(peer, buf, len, bits, c);
  const fi_addr_t dest = addrs_[size_t(peer)];
  if (!sync && len <= inject_size_ && !(hmem_ && gpu::on_device(buf))) {
    WEFT_TRY(post("fi_tinjectdata", [&] { return fi_tinjectdata(ep_, buf, len, 0, dest, bits); }));
    c->done = true;
    return Status::success();
  }
  Op* op = take(sync ? Op::Kind::kSyncSend : Op::Kind::kSend, c);
  const uint64_t data = sync ? kSyncFlag | (uint64_t(uint32_t(rank_)) << 32) | op->slot : 0;
  void* desc = nullptr;
  Status s = descriptor(op, buf, len, FI_SEND, &desc);
  if (s.ok()) s = post("fi_tsenddata", [&] {
    return fi_tsenddata(ep_, buf, len, desc, data, dest, bits, &op->ctx);
  });
  if (!s.ok()) give_back(op);
  else ++sends_in_flight_;
  return s;
}

Status OfiTransport::irecv(int, void* buf, size_t len, uint64_t bits, uint64_t mask,
                           Completion* c) {
  Op* op = take(Op::Kind::kRecv, c);
  c->handle = op;
  iovec iov = receive_buffer(op, buf, len);
  void* desc = nullptr;
  Status s = op->bounced ? Status::success() : descriptor(op, buf, len, FI_RECV, &desc);
  if (s.ok()) s = post("fi_trecv", [&] {
    return fi_trecv(ep_, iov.iov_base, iov.iov_len, desc, FI_ADDR_UNSPEC, bits, ~mask, &op->ctx);
  });
  if (!s.ok()) {
    c->handle = nullptr;
    give_back(op);
  }
  return s;
}

Status OfiTransport::recv_message(const ProbeResult& taken, void* buf, size_t len,
                                  Completion* c) {
  Op* op = static_cast<Op*>(taken.message);  // keeps the context FI_CLAIM needs again
  op->reset(Op::Kind::kRecv, c);
  iovec iov = receive_buffer(op, buf, len);
  fi_msg_tagged m{&iov, nullptr, 1, FI_ADDR_UNSPEC, taken.sender_bits, 0, &op->ctx, 0};
  return post("fi_trecvmsg(FI_CLAIM)", [&] { return fi_trecvmsg(ep_, &m, FI_CLAIM); });
}

// The outcome arrives as a completion-queue entry, read at once so that the caller (the hybrid
// transport's receive from any source) sees it as soon as possible.
void OfiTransport::cancel(Completion* c) {
  if (c->handle == nullptr) return;
  (void)fi_cancel(&ep_->fid, &static_cast<Op*>(c->handle)->ctx);
  drain();
}

// Where a receive of `len` bytes at `buf` is posted: the buffer itself, or the Op's bounce
// buffer when the provider cannot truncate an eager message safely or the buffer could not hold
// a segmented message's announcement.
iovec OfiTransport::receive_buffer(Op* op, void* buf, size_t len) {
  op->capacity = len;
  op->user_buf = buf;
  if (hmem_ && gpu::on_device(buf)) op->buffer_kind = gpu::MemoryKind::kDevice;
  op->bounced = len < bounce_below_;
  if (!op->bounced) return {buf, len};
  op->bounce.resize(bounce_below_);
  return {op->bounce.data(), bounce_below_};
}

// The standing receive for acknowledgements of this process's synchronous sends.
Status OfiTransport::post_ack_recv() {
  Op* op = take(Op::Kind::kAck, nullptr);
  const ssize_t rc = fi_trecv(ep_, nullptr, 0, nullptr, FI_ADDR_UNSPEC, kAckBits, 0, &op->ctx);
  ack_recv_missing_ = rc == -FI_EAGAIN;
  if (rc == 0) return Status::success();
  give_back(op);
  return ack_recv_missing_ ? Status::success() : ofi_error("fi_trecv (acknowledgements)", rc);
}

bool OfiTransport::probe(uint64_t bits, uint64_t mask, bool claim, ProbeResult* out) {
  drain();
  Op* op = take(Op::Kind::kProbe, nullptr);
  const uint64_t flags = FI_PEEK | (claim ? FI_CLAIM : 0);
  const bool posted = post("fi_trecvmsg(FI_PEEK)", [&] { return peek(bits, mask, flags, op); }).ok();
  if (posted) read_until(op->probed);
  const bool found = posted && op->found;
  if (found) {
    out->sender_bits = op->tag;
    out->bytes = op->len;
    out->message = claim ? op : nullptr;
  } else if (std::find(missed_probes_.begin(), missed_probes_.end(), ProbePattern{bits, mask}) ==
             missed_probes_.end()) {
    // A program that probes many tags without ever waiting keeps the latest; arm()'s timer
    // covers the others.
    if (missed_probes_.size() == kMostMissedProbes) missed_probes_.erase(missed_probes_.begin());
    missed_probes_.push_back({bits, mask});
  }
  if (!found || !claim) give_back(op);
  return found;
}

ssize_t OfiTransport::peek(uint64_t bits, uint64_t mask, uint64_t flags, Op* op) {
  fi_msg_tagged m{nullptr, nullptr, 0, FI_ADDR_UNSPEC, bits, ~mask, &op->ctx, 0};
  return fi_trecvmsg(ep_, &m, flags);
}

// ofi_rxm keeps a message no receive matches in a queue of its own, with no completion: the
// queue's fd does not tell of it. A read of the completion queue after a probe's peek may have
// taken in a message that probe looks for; its prober would sleep while its message waits. So
// arm() peeks once more for every probe that missed since the last arm, without reading the
// queue further than the answers: true if one of them would now find a message, or if a peek
// could not be posted or its answer came with other completions (progress was made).
bool OfiTransport::missed_by_probes() {
  std::vector<ProbePattern> missed;
  missed.swap(missed_probes_);
  for (const ProbePattern& p : missed) {
    Op* op = take(Op::Kind::kProbe, nullptr);
    const bool posted = peek(p.bits, p.mask, FI_PEEK, op) == 0;
    const unsigned handled = posted ? read_until(op->probed) : 0;
    const bool found = op->found;
    give_back(op);
    if (!posted || found || handled > 1) return true;
  }
  return false;
}

void OfiTransport::finish_probe(Op* op, const Outcome& outcome) {
  op->probed = true;
  op->found = outcome.error == 0;
  op->tag = outcome.tag;
  op->len = segmented_length(outcome, true).value_or(outcome.len);
}

void OfiTransport::finish_ack(Op* op, const Outcome& outcome) {
  give_back(op);
  if (outcome.error == 0 && (outcome.data & kSegmentedFlag) != 0) {
    clear_to_send(outcome.data);
  } else if (Op* s = ops_.at(outcome.data);
      outcome.error == 0 && s != nullptr && s->kind == Op::Kind::kSyncSend) {
    s->acked = true;
    end_send(s, 0);
  }
  if (outcome.error != FI_ECANCELED) (void)post_ack_recv();
}

void OfiTransport::finish_recv(Op* op, const Outcome& outcome) {
  if (outcome.error == 0 && segmented_length(outcome)) return begin_stream(op, outcome);
  Completion* c = op->c;
  const size_t capacity = op->capacity;
  Outcome o = outcome;
  if (op->bounced && (o.error == 0 || o.error == FI_ETRUNC)) {
    // Bounced: the message is at most the bounce buffer's size unless the provider truncated.
    const size_t arrived = o.error == FI_ETRUNC ? op->bounce.size() : o.len;
    if (!copy_for_receive(op->buffer_kind, op->user_buf, op->bounce.data(),
                          std::min(arrived, capacity))
             .ok())
      o.error = FI_EIO;
    else if (arrived > capacity)
      o.error = FI_ETRUNC;
  }
  give_back(op);
  c->handle = nullptr;
  c->cancelled = o.error == FI_ECANCELED;
  c->error_class = o.error == 0 || c->cancelled ? MPI_SUCCESS
                   : o.error == FI_ETRUNC       ? MPI_ERR_TRUNCATE
                                                : MPI_ERR_OTHER;
  if (!c->cancelled) {
    c->sender_bits = o.tag;
    // A truncated receive filled its buffer (rxm reports len 0 in the error entry).
    c->bytes = o.error == FI_ETRUNC ? capacity : o.len;
    tools::g_counters.ofi_messages_received.add(1);
    tools::g_counters.ofi_bytes_received.add(c->bytes);
    if ((o.flags & FI_REMOTE_CQ_DATA) != 0 && (o.data & kSyncFlag) != 0)
      acknowledge(rank_address(int((o.data & ~kSyncFlag) >> 32)), uint32_t(o.data));
  }
  c->done = true;
}

// A send is done once sent and, when synchronous, acknowledged (or when it failed).
void OfiTransport::end_send(Op* op, int error) {
  if (error == 0 && (!op->sent || (op->kind == Op::Kind::kSyncSend && !op->acked))) return;
  op->c->error_class = error == 0 ? MPI_SUCCESS : MPI_ERR_OTHER;
  op->c->done = true;
  give_back(op);
}

fi_addr_t OfiTransport::rank_address(int peer) {
  if (!connected(peer)) {
    std::vector<uint8_t> address;
    if (!address_of_ || !address_of_(peer, &address).ok() || !connect(peer, address).ok())
      return FI_ADDR_NOTAVAIL;
  }
  return addrs_[size_t(peer)];
}

void OfiTransport::acknowledge(fi_addr_t dest, uint64_t data) {
  if (dest == FI_ADDR_NOTAVAIL) return;
  pending_acks_.push_back({dest, data});
  send_acks();
}

void OfiTransport::send_acks() {
  size_t sent = 0;
  for (; sent < pending_acks_.size(); ++sent) {
    const PendingAck& a = pending_acks_[sent];
    if (fi_tinjectdata(ep_, nullptr, 0, a.data, a.dest, kAckBits) == -FI_EAGAIN)
      break;
  }
  pending_acks_.erase(pending_acks_.begin(), pending_acks_.begin() + long(sent));
}

}  // namespace weft::ofi
