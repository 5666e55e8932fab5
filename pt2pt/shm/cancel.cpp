// Cancelling on the node transport (pt2pt/shm/shm_transport.hpp): a posted receive is taken
// out of matching; a send that waits for its receiver is dropped from this side's queue, or
// withdrawn from the receiver's unexpected messages by a kCancel/kCancelReply exchange unless a
// receive has matched it meanwhile.
#include "pt2pt/shm/shm_transport.hpp"
#include "runtime/tools/counters.hpp"

namespace weft::shm {

bool ShmTransport::withdraw(int from, uint64_t cookie) {
  for (Unexpected* u = unexpected_.first(); u != nullptr; u = u->next) {
    // Only a send that waits for its receiver names itself: its cookie is unique while it waits.
    const bool waits = copied_by_receiver(u->m.kind) || (u->m.flags & kNeedsAck) != 0;
    if (!waits || u->m.from != from || u->m.cookie != cookie) continue;
    unexpected_.unlink(u);
    tools::g_counters.unexpected.lower();
    unexpected_.recycle(u);
    return true;
  }
  return false;
}

void ShmTransport::cancel(Completion* c) {
  if (c->handle == nullptr || c->done) return;
  if (!is_send_handle(c->handle)) {  // a posted receive
    auto* p = static_cast<PostedRecv*>(c->handle);
    posted_.unlink(p);
    posted_.recycle(p);
    c->handle = nullptr;
    c->cancelled = true;
    c->done = true;
    return;
  }
  // A send still in this side's queue never reached the receiver; one in its ring or among its
  // unexpected messages is withdrawn there, unless a receive has matched it meanwhile.
  const int to = send_handle_peer(c->handle);
  auto& queue = pending_[size_t(to)];
  const uint64_t cookie = reinterpret_cast<uint64_t>(c);
  for (auto it = queue.begin(); it != queue.end(); ++it) {
    const bool message = it->kind == RecordKind::kEager || copied_by_receiver(it->kind);
    if (!message || it->cookie != cookie) continue;
    queue.erase(it);
    --pending_count_;
    finish_send(to, c, true);
    return;
  }
  (void)send_record(to, Pending{RecordKind::kCancel, 0, 0, 0, cookie, nullptr, 0, nullptr});
}

}  // namespace weft::shm
