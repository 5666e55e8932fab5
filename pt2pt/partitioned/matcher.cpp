// Pairing partitioned sends with their receives: setup messages in, answers out.
#include "pt2pt/partitioned/matcher.hpp"

#include <algorithm>

#include "pt2pt/pt2pt.hpp"
#include "runtime/world.hpp"

namespace weft::partitioned {
namespace {

bool same_key(const Control& setup, const RecvSide& recv) {
  return setup.context == recv.context() && setup.sender_rank == recv.peer() &&
         setup.tag == recv.tag();
}

}  // namespace

Matcher& matcher() {
  static Matcher m;
  return m;
}

bool Matcher::busy() const {
  return !outgoing_.empty() || !incoming_.empty() || !waiting_.empty() || !unanswered_.empty();
}

void Matcher::keep_driven() {
  if (driven_ || !busy()) return;
  driven_ = true;
  world().progress.activate(this);
}

Status Matcher::send_control(int world_peer, const Control& c) {
  auto m = std::make_unique<InFlight>();
  m->message = c;
  WEFT_TRY(pt2pt::send_bits(world_peer, &m->message, sizeof m->message,
                            control_bits(world().kvs->job().rank), false, &m->done));
  outgoing_.push_back(std::move(m));
  return Status::success();
}

Status Matcher::add(SendSide* send) {
  const uint32_t id = next_send_id_++;
  WEFT_TRY(send_control(send->peer_world(), send->setup(id)));
  unanswered_[id] = send;
  keep_driven();
  return Status::success();
}

void Matcher::add(RecvSide* recv) {
  auto it = std::find_if(unexpected_.begin(), unexpected_.end(),
                         [recv](const Control& c) { return same_key(c, *recv); });
  if (it != unexpected_.end()) {
    const Control setup = *it;
    unexpected_.erase(it);
    pair(recv, setup);
  } else {
    waiting_.push_back(recv);
  }
  keep_driven();
}

void Matcher::remove(SendSide* send) {
  std::erase_if(unanswered_, [send](const auto& entry) { return entry.second == send; });
}

void Matcher::remove(RecvSide* recv) {
  std::erase(waiting_, recv);
  if (recv->channel() != kNoChannel) release_channel(recv->channel());
}

void Matcher::release_channel(uint32_t channel) {
  channel_used_[channel] = 0;
  free_channels_.push_back(channel);
}

uint32_t Matcher::take_channel() {
  if (!free_channels_.empty()) {
    const uint32_t channel = free_channels_.back();
    free_channels_.pop_back();
    channel_used_[channel] = 1;
    return channel;
  }
  if (channel_used_.size() >= kMaxChannels) return kNoChannel;
  channel_used_.push_back(1);
  return uint32_t(channel_used_.size() - 1);
}

void Matcher::pair(RecvSide* recv, const Control& setup) {
  const uint32_t channel = take_channel();
  const Control answer = recv->paired(setup, channel);
  if (channel != kNoChannel && answer.channel != channel) release_channel(channel);
  // An answer that cannot be sent leaves the sender waiting: the transport has failed, which
  // the next call on the sender's side reports.
  (void)send_control(setup.sender_world, answer);
}

void Matcher::handle(const Control& c) {
  if (c.kind == Control::kAnswer) {
    auto it = unanswered_.find(c.send_id);
    if (it == unanswered_.end()) return;  // the send was freed meanwhile
    SendSide* send = it->second;
    unanswered_.erase(it);
    send->answered(c);
    return;
  }
  auto it = std::find_if(waiting_.begin(), waiting_.end(),
                         [&c](const RecvSide* r) { return same_key(c, *r); });
  if (it == waiting_.end()) {
    unexpected_.push_back(c);
    return;
  }
  RecvSide* recv = *it;
  waiting_.erase(it);
  pair(recv, c);
}

unsigned Matcher::advance() {
  unsigned n = 0;
  Transport& t = *world().transport;
  while (!outgoing_.empty() && outgoing_.front()->done.done) {
    outgoing_.pop_front();
    ++n;
  }
  ProbeResult found;
  while (t.take_message(kAnyPeer, kAnyControl.bits, kAnyControl.mask, &found)) {
    auto m = std::make_unique<InFlight>();
    if (t.recv_message(found, &m->message, sizeof m->message, &m->done).ok())
      incoming_.push_back(std::move(m));
  }
  while (!incoming_.empty() && incoming_.front()->done.done) {
    const Control c = incoming_.front()->message;
    incoming_.pop_front();
    handle(c);
    ++n;
  }
  if (!busy()) driven_ = false;  // the progress engine drops it after this pass
  return n;
}

}  // namespace weft::partitioned
