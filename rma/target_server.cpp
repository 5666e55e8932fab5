// Serving one-sided requests at the target (rma/target_server.hpp).
#include "rma/target_server.hpp"

#include <cstring>

#include "pt2pt/pt2pt.hpp"
#include "rma/access.hpp"
#include "rma/locks.hpp"
#include "rma/messages.hpp"
#include "runtime/world.hpp"

namespace weft::rma {
namespace {

Comm& window_comm(const Window& w) { return *world().comms.find(w.comm); }

}  // namespace

TargetServer::TargetServer(Window& w) : w_(w) {
  self_.reach = Reach::kMapped;
  self_.base = 0;
  self_.mapped = nullptr;  // addresses are this process's own
  self_.control = w.targets[size_t(w.rank)].control;
  self_.device = w.targets[size_t(w.rank)].device;
  self_device_ = self_;
  self_device_.device = true;
}

TargetServer::~TargetServer() {
  for (Reply& r : replies_) {
    pt2pt::wait(r.request);
    world().requests.release(r.request);
  }
}

unsigned TargetServer::take_arrivals() {
  unsigned n = 0;
  for (;;) {
    int flag = 0;
    MPI_Message message = MPI_MESSAGE_NULL;
    MPI_Status status;
    if (!pt2pt::mprobe(window_comm(w_), MPI_ANY_SOURCE, kRequestTag, false, &flag, &message,
                       &status)
             .ok() ||
        !flag)
      return n;
    Arrival a{world().requests.acquire(), nullptr, size_t(status.weft_bytes), status.MPI_SOURCE};
    a.message.reset(new unsigned char[a.length]);
    (void)pt2pt::start_mrecv(message, a.message.get(), a.length, a.request);
    arrivals_.push_back(std::move(a));
    ++n;
  }
}

unsigned TargetServer::advance() {
  if (stopped_) return 0;
  unsigned n = take_arrivals();
  // In arrival order: a request waits for those before it, so each origin's are served in the
  // order it sent them.
  while (!arrivals_.empty() && arrivals_.front().request->completion.done) {
    serve(arrivals_.front());
    world().requests.release(arrivals_.front().request);
    arrivals_.pop_front();
    ++n;
  }
  while (!lock_waits_.empty() && try_lock(self_.control, lock_waits_.front().exclusive)) {
    answer(lock_waits_.front().origin, nullptr, 0);
    lock_waits_.pop_front();
    ++n;
  }
  std::erase_if(replies_, [](Reply& r) {
    if (!r.request->completion.done) return false;
    world().requests.release(r.request);
    return true;
  });
  return n;
}

void TargetServer::answer(int origin, std::unique_ptr<unsigned char[]> data, size_t bytes) {
  Request* r = world().requests.acquire();
  (void)pt2pt::start_send(window_comm(w_), data.get(), bytes, origin, kReplyTag,
                          pt2pt::SendMode::kStandard, r);
  replies_.push_back({r, std::move(data)});
}

void TargetServer::answer_sync(int origin) {
  SyncAnswer said;
  if (auto found = refused_.find(origin); found != refused_.end()) {
    said = found->second;
    refused_.erase(found);
  }
  std::unique_ptr<unsigned char[]> reply(new unsigned char[sizeof said]);
  std::memcpy(reply.get(), &said, sizeof said);
  answer(origin, std::move(reply), sizeof said);
}

void TargetServer::refuse(const Arrival& a, const RequestHeader& h, size_t bytes, uint64_t first,
                          uint64_t end) {
  SyncAnswer& record = refused_[a.origin];
  if (record.refused++ == 0) {
    record.first_address = first;
    record.first_end = end;
  }
  const size_t reply_bytes = h.kind == MessageKind::kCompareSwap ? h.elem_size : bytes;
  if (h.kind == MessageKind::kGet || h.kind == MessageKind::kGetAccumulate ||
      h.kind == MessageKind::kCompareSwap) {
    std::unique_ptr<unsigned char[]> zeros(new unsigned char[reply_bytes]());
    answer(a.origin, std::move(zeros), reply_bytes);
  }
}

void TargetServer::serve(const Arrival& a) {
  RequestHeader h;
  std::memcpy(&h, a.message.get(), sizeof h);
  const unsigned char* runs = a.message.get() + sizeof h;
  const unsigned char* data = runs + h.run_count * sizeof(Run);
  std::vector<Run> run_list(h.run_count);
  if (h.run_count > 0) std::memcpy(run_list.data(), runs, h.run_count * sizeof(Run));
  TargetSpan span{&self_, h.address, run_list.data(), run_list.size()};
  const size_t bytes = span_bytes(span);
  if (w_.flavor == MPI_WIN_FLAVOR_DYNAMIC && h.kind == MessageKind::kRegion) {
    RegionAnswer region;
    uint64_t start = 0;
    if (const AttachedRegion* found = attached_region(w_, h.address, 1, &start)) {
      region = {start, start + found->bytes, found->device ? 1u : 0u};
    }
    std::unique_ptr<unsigned char[]> reply(new unsigned char[sizeof region]);
    std::memcpy(reply.get(), &region, sizeof region);
    return answer(a.origin, std::move(reply), sizeof region);
  }
  if (w_.flavor == MPI_WIN_FLAVOR_DYNAMIC && !run_list.empty()) {
    // Only inside one attached region: memory the application did not attach is left alone
    // (and what an answer would carry stays zero).
    const auto [lo, hi] = span_bounds(span);
    uint64_t start = 0;
    const AttachedRegion* region =
        attached_region(w_, h.address + uint64_t(lo), uint64_t(hi - lo), &start);
    if (region == nullptr)
      return refuse(a, h, bytes, h.address + uint64_t(lo), h.address + uint64_t(hi));
    if (region->device) span.target = &self_device_;
  }

  Reduction reduction;
  Combine how;
  how.replace = (h.flags & kReplace) != 0;
  how.no_op = (h.flags & kNoOp) != 0;
  if ((h.kind == MessageKind::kAccumulate || h.kind == MessageKind::kGetAccumulate) &&
      !how.replace && !how.no_op) {
    // The origin bound the same predefined op and type, so this cannot fail; should a request
    // be corrupt, it is dropped rather than applied.
    if (!world().ops.bind(h.op, h.datatype, h.elem_size, &reduction).ok() || h.elem_size == 0)
      return;
    how.reduction = &reduction;
  }
  std::unique_ptr<unsigned char[]> reply;
  switch (h.kind) {
    case MessageKind::kPut:
      (void)write_runs(span, data);
      return;
    case MessageKind::kGet:
      reply.reset(new unsigned char[bytes]);
      (void)read_runs(span, reply.get());
      return answer(a.origin, std::move(reply), bytes);
    case MessageKind::kAccumulate:
      (void)accumulate_runs(span, data, how, nullptr);
      return;
    case MessageKind::kGetAccumulate:
      reply.reset(new unsigned char[bytes]);
      (void)accumulate_runs(span, data, how, reply.get());
      return answer(a.origin, std::move(reply), bytes);
    case MessageKind::kCompareSwap:
      reply.reset(new unsigned char[h.elem_size]);
      (void)compare_and_swap(span, data, data + h.elem_size, reply.get(), h.elem_size);
      return answer(a.origin, std::move(reply), h.elem_size);
    case MessageKind::kLock:
      if (lock_waits_.empty() && try_lock(self_.control, (h.flags & kExclusive) != 0))
        return answer(a.origin, nullptr, 0);
      lock_waits_.push_back({a.origin, (h.flags & kExclusive) != 0});
      return;
    case MessageKind::kUnlock:
      unlock(self_.control, (h.flags & kExclusive) != 0);
      return answer_sync(a.origin);
    case MessageKind::kFlush:
      return answer_sync(a.origin);
    case MessageKind::kRegion:
      return answer(a.origin, nullptr, 0);  // not a dynamic window: nothing attached
  }
}

}  // namespace weft::rma
