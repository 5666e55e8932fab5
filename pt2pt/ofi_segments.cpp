// Messages larger than the largest the provider carries (ep_attr->max_msg_size, or
// WEFT_OFI_MAX_MSG): sent as pieces, with memory bounded by the receiver's buffer. The sender
// announces the message with the user's match bits (its length, the send's slot and the sender's
// endpoint address; remote data: kSegmentedFlag | length, so a probe sees the whole length); the
// receive that matches it posts receives for the next pieces (at most kWindow), into the user's
// buffer (past its end: into host memory of their own, dropped), on match bits of its own (piece_bits of its
// slot), then sends a clear-to-send naming both slots and how many pieces it grants; the sender
// sends that many, in order, and waits for the next grant. The first clear-to-send also proves
// the message matched: a synchronous send needs nothing more. Pieces never arrive unexpected, so
// the provider buffers none of them.
#include <rdma/fi_tagged.h>

#include <algorithm>
#include <cstring>

#include "mpi.h"
#include "pt2pt/match_bits.hpp"
#include "pt2pt/ofi_hmem.hpp"
#include "pt2pt/ofi_transport_impl.hpp"
#include "runtime/tools/counters.hpp"

namespace weft::ofi {
namespace {

// Followed by the sender's endpoint address (`address_bytes`), to which the receiver grants
// pieces: ranks differ between the jobs of a spawn or connect, addresses do not.
struct Announce {
  uint64_t bytes;
  uint32_t slot;  // the sender's operation
  uint32_t address_bytes;
};
static_assert(sizeof(Announce) == kAnnounceHeaderBytes);

// The match bits of the pieces of the message received by the operation in `slot`: the
// transport's reserved context, source field 1 (acknowledgements have 0).
uint64_t piece_bits(uint32_t slot) {
  return match_bits::make_send(match_bits::kTransportContext, 1, int(slot), true);
}

// (Written so that it cannot overflow: without WEFT_OFI_MAX_MSG a piece is 2^64-1 bytes.)
size_t pieces_of(size_t bytes, size_t piece) { return bytes == 0 ? 0 : 1 + (bytes - 1) / piece; }

// The most pieces one clear-to-send grants (and receives a stream has posted at once).
constexpr size_t kWindow = 64;

// A clear-to-send's remote data: the flag, the receiver's slot (24 bits: piece_bits' tag
// field), the pieces granted (7 bits), the sender's slot.
uint64_t clear_to_send_data(uint32_t receiver_slot, size_t granted, uint32_t sender_slot) {
  return kSegmentedFlag | (uint64_t{receiver_slot} << 39) | (uint64_t(granted) << 32) |
         sender_slot;
}

}  // namespace

std::optional<size_t> segmented_length(const Outcome& o, bool peek) {
  if ((!peek && (o.flags & FI_REMOTE_CQ_DATA) == 0) || (o.data & kSegmentedFlag) == 0)
    return std::nullopt;
  return size_t(o.data & ~kSegmentedFlag);
}

Status OfiTransport::send_segmented(int peer, const void* buf, size_t len, uint64_t bits,
                                    Completion* c) {
  Op* op = take(Op::Kind::kSegmented, c);
  op->user_buf = const_cast<void*>(buf);
  op->len = len;
  op->peer = peer;
  op->pieces_left = pieces_of(len, piece_size_);
  const Announce a{len, op->slot, uint32_t(address_.size())};
  op->bounce.resize(sizeof a + address_.size());
  std::memcpy(op->bounce.data(), &a, sizeof a);
  std::memcpy(op->bounce.data() + sizeof a, address_.data(), address_.size());
  const Status s = post("fi_tsenddata (announce)", [&] {
    return fi_tsenddata(ep_, op->bounce.data(), op->bounce.size(), nullptr, kSegmentedFlag | len,
                        addrs_[size_t(peer)], bits, &op->ctx);
  });
  if (!s.ok()) {
    give_back(op);
    return s;
  }
  ++sends_in_flight_;
  tools::g_counters.ofi_segmented_messages.add(1);
  return s;
}

void OfiTransport::clear_to_send(uint64_t data) {
  Op* op = ops_.at(uint32_t(data));
  if (op == nullptr || op->kind != Op::Kind::kSegmented) return;
  op->acked = true;
  op->stream = uint32_t(data >> 39) & ((uint32_t{1} << 24) - 1);
  // Queued unless it is already (send_pieces is sending and takes the new grant too).
  if (op->granted == 0) ready_sends_.push_back(op);
  op->granted += size_t(data >> 32) & 0x7f;
}

void OfiTransport::send_pieces() {
  std::vector<Op*> ready;
  ready.swap(ready_sends_);
  for (Op* op : ready) {
    for (; op->granted > 0 && op->next < op->len; --op->granted) {
      const size_t n = std::min(piece_size_, op->len - op->next);
      Op* piece = take(Op::Kind::kPiece, nullptr);
      piece->parent = op;
      const Status s = post("fi_tsend (piece)", [&] {
        return fi_tsend(ep_, static_cast<char*>(op->user_buf) + op->next, n, nullptr,
                        addrs_[size_t(op->peer)], piece_bits(op->stream), &piece->ctx);
      });
      if (!s.ok()) {  // the pieces not sent will not complete
        give_back(piece);
        op->error = FI_EIO;
        op->pieces_left -= pieces_of(op->len - op->next, piece_size_);
        break;
      }
      op->next += n;
    }
    end_segmented(op);
  }
}

// A segmented send is done once announced, cleared and every piece sent (or when it failed).
void OfiTransport::end_segmented(Op* op) {
  if (!op->sent || (op->error == 0 && !op->acked) || (op->acked && op->pieces_left > 0)) return;
  op->c->error_class = op->error == 0 ? MPI_SUCCESS : MPI_ERR_OTHER;
  op->c->done = true;
  --sends_in_flight_;
  give_back(op);
}

void OfiTransport::begin_stream(Op* op, const Outcome& o) {
  const char* announced = op->bounced ? op->bounce.data() : static_cast<char*>(op->user_buf);
  if (!op->bounced && op->buffer_kind == gpu::MemoryKind::kDevice) {  // read through the device
    op->bounce.resize(o.len);
    if (!copy_for_receive(op->buffer_kind, op->bounce.data(), announced, o.len).ok())
      op->bounce.assign(o.len, 0);  // no valid announcement: ends failed below
    announced = op->bounce.data();
  }
  Announce a;
  std::memcpy(&a, announced, sizeof a);
  op->len = size_t(a.bytes);
  op->tag = o.tag;
  op->pieces_left = pieces_of(op->len, piece_size_);
  // Without the sender's address no grant can reach it: the receive ends failed.
  if (o.len != sizeof a + a.address_bytes ||
      !address_handle({announced + sizeof a, announced + o.len}, &op->reply_to).ok())
    op->error = FI_EINVAL;
  op->stream = a.slot;  // the sender's
  starting_streams_.push_back(op);
}

// Posts the receives of each stream's next window of pieces and grants them to the sender; a
// stream whose first receive the provider cannot take yet (-FI_EAGAIN) waits for the next call.
void OfiTransport::post_stream_receives() {
  std::vector<Op*> starting;
  starting.swap(starting_streams_);
  for (Op* op : starting) {
    size_t granted = 0;
    for (; op->error == 0 && granted < kWindow && op->next < op->len; ++granted) {
      const size_t offset = op->next, n = std::min(piece_size_, op->len - offset);
      Op* piece = take(Op::Kind::kPiece, nullptr);
      piece->parent = op;
      void* into = static_cast<char*>(op->user_buf) + offset;
      switch (piece_landing(offset, n, op->capacity, op->buffer_kind)) {
        case PieceLanding::kInBuffer:
          break;
        case PieceLanding::kBounced:  // what lies inside the buffer is copied there
          piece->bounce.resize(n);
          piece->bounced = true;
          piece->user_buf = into;
          piece->buffer_kind = op->buffer_kind;
          piece->capacity = std::min(n, op->capacity - offset);
          into = piece->bounce.data();
          break;
        case PieceLanding::kDropped:  // into the piece's own host memory, not copied
          piece->bounce.resize(n);
          into = piece->bounce.data();
          break;
      }
      const ssize_t rc =
          fi_trecv(ep_, into, n, nullptr, FI_ADDR_UNSPEC, piece_bits(op->slot), 0, &piece->ctx);
      if (rc != 0) {
        give_back(piece);
        if (rc != -FI_EAGAIN) op->error = int(-rc);
        break;
      }
      op->next += n;
    }
    if (op->error != 0) {  // the sender is not granted the rest: the message ends failed
      op->pieces_left -= pieces_of(op->len - op->next, piece_size_);
      if (op->pieces_left == 0) end_stream(op);
    } else if (granted > 0 || op->len == 0) {  // an empty message: its grant proves the match
      acknowledge(op->reply_to, clear_to_send_data(op->slot, granted, op->stream));
      if (op->len == 0) end_stream(op);
    } else {
      starting_streams_.push_back(op);
    }
  }
}

void OfiTransport::finish_piece(Op* piece, const Outcome& o) {
  Op* parent = piece->parent;
  if (o.error != 0) parent->error = o.error;
  if (piece->bounced && o.error == 0 &&
      !copy_for_receive(piece->buffer_kind, piece->user_buf, piece->bounce.data(),
                        std::min(o.len, piece->capacity))
           .ok())
    parent->error = FI_EIO;
  give_back(piece);
  --parent->pieces_left;
  if (parent->kind == Op::Kind::kSegmented) return end_segmented(parent);
  const size_t unposted = pieces_of(parent->len - parent->next, piece_size_);
  if (parent->pieces_left == 0) end_stream(parent);
  else if (parent->pieces_left == unposted) starting_streams_.push_back(parent);  // window done
}

void OfiTransport::end_stream(Op* op) {
  Completion* c = op->c;
  c->handle = nullptr;
  c->sender_bits = op->tag;
  c->bytes = std::min(op->len, op->capacity);
  c->error_class = op->error != 0             ? MPI_ERR_OTHER
                   : op->len > op->capacity ? MPI_ERR_TRUNCATE
                                            : MPI_SUCCESS;
  tools::g_counters.ofi_messages_received.add(1);
  tools::g_counters.ofi_bytes_received.add(c->bytes);
  give_back(op);
  c->done = true;
}

}  // namespace weft::ofi
