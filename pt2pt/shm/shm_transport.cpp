// The node transport's protocols (pt2pt/shm/shm_transport.hpp): eager records, rendezvous by
// process_vm_readv, acknowledgements, full-ring queues and sleeping receivers (cancelling:
// pt2pt/shm/cancel.cpp).
#include "pt2pt/shm/shm_transport.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>

#include "gpu/memory.hpp"
#include "mpi.h"
#include "pt2pt/shm/cross_memory.hpp"
#include "pt2pt/shm/split_copy.hpp"
#include "pt2pt/match_bits.hpp"
#include "runtime/tools/counters.hpp"
#include "runtime/tools/events.hpp"

namespace weft::shm {
namespace {

// Far longer than a store takes to become visible to other cores, far shorter than a sleep.
constexpr long kBackstopMicroseconds = 1000;

}  // namespace

void ShmTransport::complete_recv(Completion* c, uint64_t bits, uint64_t bytes, size_t capacity,
                                 bool ok) {
  c->sender_bits = bits;
  c->bytes = std::min<uint64_t>(bytes, capacity);
  tools::g_counters.shm_messages_received.add(1);
  tools::g_counters.shm_bytes_received.add(c->bytes);
  c->error_class = !ok ? MPI_ERR_OTHER : bytes > capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  c->handle = nullptr;
  c->done = true;
}

// After a record is published: a receiver that sleeps is woken. No fence between the record
// and the flag (pt2pt/shm/doorbell.hpp says why the backstop makes that safe).
void ShmTransport::ring_if_sleeping(int to) {
  const PeerControl* peer = segment_->peer(to);
  if (peer->sleeping.load(std::memory_order_relaxed) != 0) doorbell_.ring(peer->pid);
}

void ShmTransport::wake_after_publishing(std::span<const int> locals) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  for (int local : locals)
    if (local != me_) ring_if_sleeping(local);
}

bool ShmTransport::write(int to, const Pending& p) {
  const void* payload = p.payload;
  size_t payload_bytes = p.kind == RecordKind::kEager ? size_t(p.bytes) : 0;
  if (p.kind == RecordKind::kRendezvous || p.kind == RecordKind::kStagedCopy) {
    payload = &p.address;
    payload_bytes = sizeof p.address;
  } else if (p.kind == RecordKind::kDeviceRendezvous) {
    payload_bytes = sizeof(DeviceOffer);
  }
  if (!out_[size_t(to)].write(p.kind, p.flags, p.bits, p.bytes, p.cookie, payload, payload_bytes))
    return false;
  ring_if_sleeping(to);
  if (p.complete_when_written != nullptr) p.complete_when_written->done = true;
  return true;
}

Status ShmTransport::send_record(int to, const Pending& p) {
  auto& queue = pending_[size_t(to)];
  if (queue.empty() && write(to, p)) return Status::success();
  queue.push_back(p);
  ++pending_count_;
  return Status::success();
}

// The common case, written straight into the ring: a standard eager send with nothing queued.
bool ShmTransport::send_now(int peer, const void* buf, size_t len, uint64_t bits) {
  const int to = local_of_[size_t(peer)];
  if (len > eager_limit_ || !pending_[size_t(to)].empty() ||
      !out_[size_t(to)].write(RecordKind::kEager, 0, bits, len, 0, buf, len))
    return false;
  ring_if_sleeping(to);
  tools::g_counters.shm_eager_sent.add(1);
  tools::g_counters.shm_bytes_sent.add(len);
  return true;
}

Status ShmTransport::isend(int peer, const void* buf, size_t len, uint64_t bits, bool sync,
                           Completion* c) {
  if (!sync && send_now(peer, buf, len, bits)) {
    c->handle = nullptr;
    c->done = true;
    return Status::success();
  }
  const int to = local_of_[size_t(peer)];
  tools::g_counters.shm_bytes_sent.add(len);
  const bool waits = sync || len > eager_limit_;
  c->handle = waits ? waiting_send_handle(to) : nullptr;
  if (waits) ++waiting_sends_[size_t(to)];
  const uint64_t cookie = reinterpret_cast<uint64_t>(c);
  if (len <= eager_limit_) {
    tools::g_counters.shm_eager_sent.add(1);
    return send_record(to, Pending{RecordKind::kEager, uint16_t(sync ? kNeedsAck : 0), bits, len,
                                   sync ? cookie : 0, buf, 0, sync ? nullptr : c});
  }
  // Rendezvous: complete when the receiver has copied it (kFin), which also makes it
  // synchronous.
  if (device_ipc_ && gpu::on_device(buf)) return send_device(to, buf, len, bits, cookie);
  tools::g_counters.shm_single_copy_sent.add(1);
  return send_record(to, Pending{RecordKind::kRendezvous, 0, bits, len, cookie, nullptr,
                                 reinterpret_cast<uint64_t>(buf), nullptr});
}

unsigned ShmTransport::send_pending() {
  unsigned sent = 0;
  for (size_t to = 0; to < pending_.size(); ++to) {
    auto& queue = pending_[to];
    if (queue.empty()) continue;
    RingControl* ring = out_[to].control();
    while (!queue.empty()) {
      if (!write(int(to), queue.front())) {
        // Ask the receiver to ring us when it frees room, then look once more: it may have
        // freed it before it saw the request.
        ring->producer_waiting.store(1, std::memory_order_seq_cst);
        if (!write(int(to), queue.front())) {
          backstop_set_ = false;  // the receiver's word may cross this look
          break;
        }
      }
      queue.pop_front();
      --pending_count_;
      ++sent;
    }
    if (queue.empty()) ring->producer_waiting.store(0, std::memory_order_relaxed);
  }
  return sent;
}

Unexpected* ShmTransport::find_unexpected(uint64_t bits, uint64_t mask) {
  for (Unexpected* u = unexpected_.first(); u != nullptr; u = u->next)
    if (bits_match(u->m.bits, bits, mask)) return u;
  return nullptr;
}

void ShmTransport::deliver(const Arrival& m, void* buf, size_t capacity, Completion* c,
                           bool receive_waited) {
  const size_t n = size_t(std::min<uint64_t>(m.bytes, capacity));
  const int from = m.from;
  // Split only where the receive waited for the message and we wait for no send to its
  // sender: a message that was already there, or one of an exchange, meets a sender that is
  // busy copying too (sharing the copies made a 1 MiB exchange 15% slower). One of a stream
  // (more records behind it in its sender's ring, which holds it now), only from
  // split_stream_min_; the ring is looked at only for such a message, not on the eager path.
  const bool to_device = device_receive(buf, capacity);
  const bool split = receive_waited && !to_device && split_copy_min_ != 0 && n >= split_copy_min_ &&
                     waiting_sends_[size_t(from)] == 0 &&
                     (n >= split_stream_min_ || !in_[size_t(from)].more_behind());
  bool ok = true;
  if (m.kind == RecordKind::kEager) {
    if (to_device) {
      ok = gpu::device_memory()->copy(buf, m.payload, n).ok();
    } else if (n != 0) {
      std::memcpy(buf, m.payload, n);
    }
    if (m.flags & kNeedsAck)
      (void)send_record(from, Pending{RecordKind::kAck, 0, 0, 0, m.cookie, nullptr, 0, nullptr});
  } else if (m.kind == RecordKind::kDeviceRendezvous) {
    if (!read_device(m, buf, n, &ok)) {  // wait for the sender's host copy (kStagedCopy)
      awaited_copies_.push_back({from, m.cookie, m.bits, m.bytes, buf, capacity, c});
      c->handle = nullptr;
      (void)send_record(
          from, Pending{RecordKind::kDeviceRefused, 0, 0, 0, m.cookie, nullptr, 0, nullptr});
      return;
    }
    (void)send_record(from, Pending{RecordKind::kFin, 0, 0, 0, m.cookie, nullptr, 0, nullptr});
  } else if (split && offer_split_copy(segment_->copy_slot(from, me_), m.address,
                                       reinterpret_cast<uint64_t>(buf), n)) {
    (void)send_record(from,
                      Pending{RecordKind::kSplitCopy, 0, 0, 0, m.cookie, nullptr, 0, nullptr});
    CopySlot* slot = segment_->copy_slot(from, me_);
    copy_chunks(slot, true, segment_->peer(from)->pid);
    ok = !split_copy_failed(slot);
  } else {
    ok = read_host(from, m.address, buf, n, to_device);
    (void)send_record(from, Pending{RecordKind::kFin, 0, 0, 0, m.cookie, nullptr, 0, nullptr});
  }
  complete_recv(c, m.bits, m.bytes, capacity, ok);
}

void ShmTransport::finish_send(int to, Completion* c, bool cancelled) {
  if (!device_sends_.empty()) device_sends_.erase(reinterpret_cast<uint64_t>(c));
  --waiting_sends_[size_t(to)];
  c->handle = nullptr;
  c->cancelled = cancelled;
  c->done = true;
}

void ShmTransport::on_record(int from, RecordHeader* h) {
  auto* our_send = reinterpret_cast<Completion*>(h->cookie);  // answers name the send
  if (h->kind == RecordKind::kAck || h->kind == RecordKind::kFin) {
    finish_send(from, our_send, false);
    return;
  }
  if (h->kind == RecordKind::kCancel) {
    (void)send_record(from, Pending{RecordKind::kCancelReply,
                                    uint16_t(withdraw(from, h->cookie) ? kWithdrawn : 0), 0, 0,
                                    h->cookie, nullptr, 0, nullptr});
    return;
  }
  if (h->kind == RecordKind::kCancelReply) {  // not withdrawn: kAck or kFin completes it
    if ((h->flags & kWithdrawn) != 0) finish_send(from, our_send, true);
    return;
  }
  if (h->kind == RecordKind::kDeviceRefused) {
    offer_staged_copy(from, h->cookie);
    return;
  }
  if (h->kind == RecordKind::kStagedCopy) {
    receive_staged_copy(from, h);
    return;
  }
  if (h->kind == RecordKind::kSplitCopy) {  // our send: help copy it, then it is done
    CopySlot* slot = segment_->copy_slot(me_, from);
    copy_chunks(slot, false, segment_->peer(from)->pid);
    release_split_copy(slot);
    finish_send(from, our_send, false);
    return;
  }
  const Arrival m{from, h->kind, h->flags, h->bits, h->bytes, h->cookie,
                  h->kind == RecordKind::kRendezvous ? *reinterpret_cast<uint64_t*>(h->payload())
                                                     : 0,
                  h->payload()};
  for (PostedRecv* p = posted_.first(); p != nullptr;) {
    PostedRecv* next = p->next;
    if (bits_match(h->bits, p->bits, p->mask)) {
      posted_.unlink(p);
      // A receive another transport has matched meanwhile is its, not ours.
      const bool ours = p->guard == nullptr || p->guard->claim();
      if (ours) {
        deliver(m, p->buf, p->capacity, p->c, true);
      } else {
        p->c->handle = nullptr;
      }
      posted_.recycle(p);
      if (ours) return;
    }
    p = next;
  }
  Unexpected* u = unexpected_.make();
  u->m = m;
  if (h->kind == RecordKind::kEager) u->data.assign(h->payload(), h->payload() + h->bytes);
  if (h->kind == RecordKind::kDeviceRendezvous)
    u->data.assign(h->payload(), h->payload() + sizeof(DeviceOffer));
  unexpected_.push_back(u);
  tools::g_counters.unexpected.raise();
  tools::unexpected_message_event(match_bits::source_of(m.bits), match_bits::tag_of(m.bits),
                                  match_bits::context_of(m.bits), uint64_t(m.bytes));
}

Status ShmTransport::irecv_guarded(void* buf, size_t len, uint64_t bits, uint64_t mask,
                                   Completion* c, MatchGuard* guard) {
  if (Unexpected* u = find_unexpected(bits, mask)) {
    if (guard != nullptr && !guard->claim()) return Status::success();
    unexpected_.unlink(u);
    tools::g_counters.unexpected.lower();
    u->m.payload = u->data.data();
    deliver(u->m, buf, len, c, false);
    unexpected_.recycle(u);
    return Status::success();
  }
  PostedRecv* p = posted_.make();
  *p = PostedRecv{bits, mask, buf, len, c, guard};
  posted_.push_back(p);
  c->handle = p;
  return Status::success();
}

bool ShmTransport::find_message(uint64_t bits, uint64_t mask, bool take, ProbeResult* out) {
  Unexpected* u = find_unexpected(bits, mask);
  if (u == nullptr) {
    progress();
    u = find_unexpected(bits, mask);
  }
  if (u == nullptr) return false;
  out->sender_bits = u->m.bits;
  out->bytes = size_t(u->m.bytes);
  out->message = nullptr;
  if (take) {
    unexpected_.unlink(u);
    tools::g_counters.unexpected.lower();
    out->message = u;
  }
  return true;
}

bool ShmTransport::iprobe(int, uint64_t bits, uint64_t mask, ProbeResult* out) {
  return find_message(bits, mask, false, out);
}

bool ShmTransport::take_message(int, uint64_t bits, uint64_t mask, ProbeResult* out) {
  return find_message(bits, mask, true, out);
}

Status ShmTransport::recv_message(const ProbeResult& taken, void* buf, size_t len, Completion* c) {
  auto* u = static_cast<Unexpected*>(taken.message);
  c->handle = nullptr;
  u->m.payload = u->data.data();
  deliver(u->m, buf, len, c, false);
  unexpected_.recycle(u);
  return Status::success();
}

unsigned ShmTransport::progress() {
  if (armed_) {
    segment_->peer(me_)->sleeping.store(0, std::memory_order_relaxed);
    armed_ = false;
  }
  unsigned n = 0;
  for (size_t from = 0; from < in_.size(); ++from) {
    RingReader& ring = in_[from];
    RecordHeader* h = ring.peek();
    if (h == nullptr) continue;
    do {
      on_record(int(from), h);
      ring.pop();
      ++n;
    } while ((h = ring.peek()) != nullptr);
    // A producer that found this ring full waits for our word that there is room (no fence:
    // its backstop covers a word that crosses its last look, pt2pt/shm/doorbell.hpp).
    if (ring.control()->producer_waiting.load(std::memory_order_relaxed) != 0)
      doorbell_.ring(segment_->peer(int(from))->pid);
  }
  if (pending_count_ != 0) n += send_pending();
  if (n != 0) backstop_set_ = false;
  return n;
}

bool ShmTransport::arm() {
  doorbell_.drain();
  segment_->peer(me_)->sleeping.store(1, std::memory_order_seq_cst);
  armed_ = true;
  for (const RingReader& ring : in_)
    if (ring.ready()) return false;
  // The first sleep after activity ends within the backstop; later ones wait for a doorbell.
  if (!backstop_set_) {
    doorbell_.set_backstop(kBackstopMicroseconds);
    backstop_set_ = true;
  }
  return true;
}

void ShmTransport::wake() { doorbell_.ring(getpid()); }

Status ShmTransport::flush() {
  while (pending_count_ != 0) progress();
  return Status::success();
}

}  // namespace weft::shm
