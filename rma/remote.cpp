// Origin side of the active-message path (rma/remote.hpp): encoding requests, sending them on
// the window's communicator and waiting for answers.
#include "rma/remote.hpp"

#include <cstdio>
#include <cstring>
#include <string>

#include "pt2pt/pt2pt.hpp"
#include "rma/messages.hpp"
#include "rma/target_server.hpp"
#include "rma/transport_atomics.hpp"
#include "runtime/async_progress.hpp"
#include "runtime/datatype/datatype.hpp"
#include "runtime/world.hpp"

namespace weft::rma {

RemoteState::RemoteState() = default;
RemoteState::~RemoteState() = default;

namespace {

int rank_of(const Window& w, const Target* t) { return int(t - w.targets.data()); }

// header, the span's runs, then `parts` of data, in one buffer.
struct Part {
  const void* data;
  size_t bytes;
};
std::unique_ptr<unsigned char[]> encode(RequestHeader h, const TargetSpan* span,
                                        std::initializer_list<Part> parts, size_t* length) {
  h.run_count = span != nullptr ? span->run_count : 0;
  h.data_bytes = 0;
  for (const Part& p : parts) h.data_bytes += p.bytes;
  *length = sizeof h + h.run_count * sizeof(Run) + h.data_bytes;
  std::unique_ptr<unsigned char[]> m(new unsigned char[*length]);
  unsigned char* at = m.get();
  std::memcpy(at, &h, sizeof h);
  at += sizeof h;
  if (h.run_count > 0) {
    std::memcpy(at, span->runs, h.run_count * sizeof(Run));
    at += h.run_count * sizeof(Run);
  }
  for (const Part& p : parts) {
    if (p.bytes > 0) std::memcpy(at, p.data, p.bytes);
    at += p.bytes;
  }
  return m;
}

Comm& window_comm(const Window& w) { return *world().comms.find(w.comm); }

// Sends a request; the window keeps the message until the send completes.
Status send(Window& w, int target, std::unique_ptr<unsigned char[]> message, size_t length) {
  Request* r = world().requests.acquire();
  const Status s = pt2pt::start_send(window_comm(w), message.get(), length, target, kRequestTag,
                                     pt2pt::SendMode::kStandard, r);
  if (!s.ok()) {
    world().requests.release(r);
    return s;
  }
  w.remote.sends.push_back({r, std::move(message)});
  w.remote.dirty.insert(target);
  // Forget the sends already done, so that a long epoch does not pile them up.
  std::erase_if(w.remote.sends, [](RemoteState::Pending& p) {
    if (!p.request->completion.done) return false;
    world().requests.release(p.request);
    return true;
  });
  return Status::success();
}

// Sends a request and waits for its answer of `reply_bytes` into `reply`.
Status round_trip(Window& w, int target, std::unique_ptr<unsigned char[]> message, size_t length,
                  void* reply, size_t reply_bytes) {
  Request answer;
  WEFT_TRY(pt2pt::start_recv(window_comm(w), reply, reply_bytes, target, kReplyTag, &answer));
  WEFT_TRY(send(w, target, std::move(message), length));
  pt2pt::wait(&answer);
  if (answer.completion.error_class != 0)
    return Status::error(answer.completion.error_class,
                         "the answer of rank " + std::to_string(target) + " was not received");
  // It serves requests in order, so the earlier ones are done; but a dynamic window's target
  // reports refused requests only in a SyncAnswer, which a later flush must still ask for.
  if (w.flavor != MPI_WIN_FLAVOR_DYNAMIC) w.remote.dirty.erase(target);
  return Status::success();
}

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "%#llx", static_cast<unsigned long long>(value));
  return text;
}

// A kFlush or kUnlock to `target` and its SyncAnswer; a refusal it reports is kept in
// w.remote.refusal (the first one) for take_refusal.
Status sync_round_trip(Window& w, int target, MessageKind kind, uint8_t flags) {
  RequestHeader h;
  h.kind = kind;
  h.flags = flags;
  size_t length = 0;
  auto m = encode(h, nullptr, {}, &length);
  SyncAnswer said;
  WEFT_TRY(round_trip(w, target, std::move(m), length, &said, sizeof said));
  w.remote.dirty.erase(target);
  if (said.refused == 0 || !w.remote.refusal.ok()) return Status::success();
  w.remote.refusal = Status::error(
      MPI_ERR_RMA_RANGE,
      std::to_string(said.refused) + " operation(s) on rank " + std::to_string(target) + " of " +
          w.display_name() +
          " addressed memory that rank had not attached with MPI_Win_attach (the first: bytes [" +
          hex(said.first_address) + ", " + hex(said.first_end) +
          ")); puts and accumulates there were dropped and gets answered with zeros");
  return Status::success();
}

RequestHeader accumulate_header(MessageKind kind, const TargetSpan& span, const Combine& how) {
  RequestHeader h;
  h.kind = kind;
  h.address = span.address;
  h.op = how.op;
  h.flags = uint8_t((how.replace ? kReplace : 0) | (how.no_op ? kNoOp : 0));
  if (how.reduction != nullptr) {
    h.datatype = how.reduction->datatype;
    h.elem_size = uint32_t(how.reduction->elem_size);
  }
  return h;
}

// A contiguous span of a target whose key this process holds: the transport's own RMA.
bool by_transport(const TargetSpan& span) {
  return span.target->key != nullptr && span.run_count == 1;
}

// A transport put or get of the span's one run, waited for until complete here (the origin
// buffer reusable, or the data arrived); completion at the target comes with remote_flush.
Status transport_transfer(Window& w, const TargetSpan& span, bool get, unsigned char* packed) {
  const Target& t = *span.target;
  const uint64_t address = span.address + uint64_t(span.runs[0].offset);
  const size_t bytes = size_t(span.runs[0].bytes);
  Transport& transport = *world().transport;
  Completion c;
  WEFT_TRY(get ? transport.get(t.world_rank, packed, bytes, address, t.key, &c)
               : transport.put(t.world_rank, packed, bytes, address, t.key, &c));
  w.remote.rma_dirty.insert(rank_of(w, &t));
  world().progress.wait_until([&] { return c.done; });
  if (c.error_class != 0)
    return Status::error(c.error_class, std::string(get ? "get from" : "put to") + " rank " +
                                            std::to_string(rank_of(w, &t)) + " of " +
                                            w.display_name() + " failed in the transport");
  return Status::success();
}

// Completes every transport put/get to window rank `target` at the target.
Status transport_flush(Window& w, int target) {
  if (w.remote.rma_dirty.erase(target) == 0) return Status::success();
  Completion c;
  WEFT_TRY(world().transport->flush_peer(w.targets[size_t(target)].world_rank, &c));
  world().progress.wait_until([&] { return c.done; });
  if (c.error_class != 0)
    return Status::error(c.error_class, "flush of rank " + std::to_string(target) + " of " +
                                            w.display_name() + " failed in the transport");
  return Status::success();
}

}  // namespace

Status remote_put(Window& w, const TargetSpan& span, const unsigned char* packed) {
  if (by_transport(span))
    return transport_transfer(w, span, false, const_cast<unsigned char*>(packed));
  RequestHeader h;
  h.kind = MessageKind::kPut;
  h.address = span.address;
  size_t length = 0;
  auto m = encode(h, &span, {{packed, span_bytes(span)}}, &length);
  return send(w, rank_of(w, span.target), std::move(m), length);
}

Status remote_get(Window& w, const TargetSpan& span, unsigned char* packed) {
  if (by_transport(span)) return transport_transfer(w, span, true, packed);
  RequestHeader h;
  h.kind = MessageKind::kGet;
  h.address = span.address;
  size_t length = 0;
  auto m = encode(h, &span, {}, &length);
  return round_trip(w, rank_of(w, span.target), std::move(m), length, packed, span_bytes(span));
}

Status remote_accumulate(Window& w, const TargetSpan& span, const unsigned char* packed,
                         const Combine& how, unsigned char* old) {
  if (by_transport_atomics(w, span, how.basic))
    return transport_accumulate(w, span, packed, how, old);
  const size_t bytes = span_bytes(span);
  const RequestHeader h = accumulate_header(
      old != nullptr ? MessageKind::kGetAccumulate : MessageKind::kAccumulate, span, how);
  size_t length = 0;
  auto m = encode(h, &span, {{packed, how.no_op ? 0 : bytes}}, &length);
  const int target = rank_of(w, span.target);
  if (old == nullptr) return send(w, target, std::move(m), length);
  return round_trip(w, target, std::move(m), length, old, bytes);
}

Status remote_compare_and_swap(Window& w, const TargetSpan& span, const void* value,
                               const void* compare, void* old, const Datatype& type) {
  if (by_transport_atomics(w, span, type.basic_type()))
    return transport_compare_and_swap(w, span, value, compare, old, type.basic_type());
  const size_t bytes = type.size();
  RequestHeader h;
  h.kind = MessageKind::kCompareSwap;
  h.address = span.address;
  h.elem_size = uint32_t(bytes);
  size_t length = 0;
  auto m = encode(h, &span, {{value, bytes}, {compare, bytes}}, &length);
  return round_trip(w, rank_of(w, span.target), std::move(m), length, old, bytes);
}

Status remote_lock(Window& w, int target, bool exclusive) {
  RequestHeader h;
  h.kind = MessageKind::kLock;
  h.flags = exclusive ? kExclusive : 0;
  size_t length = 0;
  auto m = encode(h, nullptr, {}, &length);
  return round_trip(w, target, std::move(m), length, nullptr, 0);
}

Status remote_unlock(Window& w, int target, bool exclusive) {
  WEFT_TRY(transport_flush(w, target));  // done there before others may take the lock
  return sync_round_trip(w, target, MessageKind::kUnlock, exclusive ? kExclusive : 0);
}

Status remote_flush(Window& w, int target) {
  if (target >= 0) {
    WEFT_TRY(transport_flush(w, target));
  } else {
    const std::set<int> all = w.remote.rma_dirty;
    for (int t : all) WEFT_TRY(transport_flush(w, t));
  }
  std::vector<int> targets;
  if (target >= 0) {
    if (w.remote.dirty.count(target) != 0) targets.push_back(target);
  } else {
    targets.assign(w.remote.dirty.begin(), w.remote.dirty.end());
  }
  for (int t : targets) WEFT_TRY(sync_round_trip(w, t, MessageKind::kFlush, 0));
  return Status::success();
}

Status take_refusal(Window& w) {
  Status s = w.remote.refusal;
  w.remote.refusal = Status::success();
  return s;
}

Status remote_region(Window& w, int target, uint64_t address, RegionAnswer* out) {
  RequestHeader h;
  h.kind = MessageKind::kRegion;
  h.address = address;
  size_t length = 0;
  auto m = encode(h, nullptr, {}, &length);
  *out = RegionAnswer{};
  return round_trip(w, target, std::move(m), length, out, sizeof *out);
}

Status start_server(Window& w) {
  w.remote.server = std::make_unique<TargetServer>(w);
  world().progress.activate(w.remote.server.get());
  async_progress_retain();  // served even while this process computes outside MPI
  return Status::success();
}

void stop_server(Window& w) {
  for (RemoteState::Pending& p : w.remote.sends) {
    pt2pt::wait(p.request);
    world().requests.release(p.request);
  }
  w.remote.sends.clear();
  if (w.remote.server == nullptr) return;
  w.remote.server->stop();
  world().progress.poll();  // drops the finished server from the engine's list
  w.remote.server.reset();
  async_progress_release();
}

}  // namespace weft::rma
