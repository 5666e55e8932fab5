// The buffers of buffered mode (the process's, communicators' and sessions') and the sends of the
// copies in them; flushing them, waiting or as a request (MPI 4.1 §3.6).
#include "pt2pt/buffered.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpu/typed_copy.hpp"
#include "pt2pt/bsend_space.hpp"
#include "runtime/world.hpp"

namespace weft::pt2pt {
namespace {

static_assert(BsendSpace::kAlign == MPI_BSEND_OVERHEAD, "a message may take its size + kAlign");

// A copy being sent by a pooled request of our own: in the attached buffer at `offset`, or, for
// MPI_BUFFER_AUTOMATIC, in `own_copy`.
struct InFlight {
  Request* send;
  size_t offset;
  std::unique_ptr<unsigned char[]> own_copy;
  uint64_t seq;  // 1 for the scope's first buffered message, 2 for the next...
};

struct AttachedBuffer {
  unsigned char* base = nullptr;
  size_t size = 0;
  bool automatic = false;
  BsendSpace space;
  std::vector<InFlight> in_flight;
  uint64_t buffered = 0;  // messages buffered so far
};

// The attached buffers by scope key; an entry exists while a buffer is attached. Node-based, so
// a reference stays valid while other scopes attach and detach.
std::unordered_map<uint64_t, AttachedBuffer>& buffers() {
  static std::unordered_map<uint64_t, AttachedBuffer> attached;
  return attached;
}

AttachedBuffer* find(BufferScope scope) {
  auto it = buffers().find(scope.key());
  return it == buffers().end() ? nullptr : &it->second;
}

// The buffer a buffered send on `comm` copies into: the communicator's, its session's or the
// process's (MPI 4.1 §3.6.1); null when none is attached.
AttachedBuffer* buffer_for(const Comm& comm) {
  if (AttachedBuffer* own = find(BufferScope::comm(comm.handle))) return own;
  if (comm.session != MPI_SESSION_NULL) {
    if (AttachedBuffer* of_session = find(BufferScope::session(comm.session))) return of_session;
  }
  return find(BufferScope::process());
}

// Frees the space of the copies whose sends have completed.
void reclaim(AttachedBuffer& b) {
  std::erase_if(b.in_flight, [&](const InFlight& f) {
    if (!f.send->completion.done) return false;
    if (!b.automatic) b.space.release(f.offset);
    world().requests.release(f.send);
    return true;
  });
}

// Whether a message buffered in `scope` up to number `upto` is still being sent.
bool sending(BufferScope scope, uint64_t upto) {
  AttachedBuffer* b = find(scope);
  if (b == nullptr) return false;
  reclaim(*b);
  return std::any_of(b->in_flight.begin(), b->in_flight.end(),
                     [upto](const InFlight& f) { return f.seq <= upto; });
}

uint64_t buffered_so_far(BufferScope scope) {
  const AttachedBuffer* b = find(scope);
  return b == nullptr ? 0 : b->buffered;
}

// Waits until the messages buffered in `scope` so far have been sent.
void wait_sent(BufferScope scope) {
  const uint64_t upto = buffered_so_far(scope);
  world().progress.wait_until([scope, upto] { return !sending(scope, upto); });
}

// MPI_Buffer_iflush's request: finishes once the messages buffered before it have been sent.
class BufferFlush final : public Activity {
 public:
  BufferFlush(BufferScope scope, Completion* report)
      : scope_(scope), upto_(buffered_so_far(scope)), report_(report) {}

  unsigned advance() override {
    if (finished_ || sending(scope_, upto_)) return 0;
    finished_ = true;
    report_->done = true;
    return 1;
  }
  bool finished() const override { return finished_; }
  Status outcome() const override { return Status::success(); }
  Status restart() override {
    return Status::error(MPI_ERR_REQUEST, "a buffer flush request cannot be restarted");
  }

 private:
  BufferScope scope_;
  uint64_t upto_;
  Completion* report_;
  bool finished_ = false;
};

Status no_room(const AttachedBuffer& b, size_t bytes) {
  return Status::error(
      MPI_ERR_BUFFER,
      "the attached buffer cannot hold the message: it needs " +
          std::to_string(BsendSpace::charge(bytes)) + " bytes (" + std::to_string(bytes) +
          " of data, rounded up; allow MPI_BSEND_OVERHEAD per message), " +
          std::to_string(b.space.largest_free()) + " bytes are available in one piece (" +
          std::to_string(b.space.free_bytes()) + " free of " + std::to_string(b.size) +
          " attached; " + std::to_string(b.in_flight.size()) +
          " buffered messages are still being sent)");
}

// Where a message of `bytes` is copied: a block of the attached buffer or, for an automatic one,
// memory of its own. Nothing (and *error set) when the buffer has no room.
std::optional<InFlight> place(AttachedBuffer& b, size_t bytes, Status* error) {
  if (b.automatic) {
    auto copy = std::make_unique<unsigned char[]>(std::max<size_t>(bytes, 1));
    return InFlight{nullptr, 0, std::move(copy), 0};
  }
  reclaim(b);
  std::optional<size_t> offset = b.space.allocate(bytes);
  if (!offset) {  // sends may have completed without anyone looking
    world().progress.poll();
    reclaim(b);
    offset = b.space.allocate(bytes);
  }
  if (!offset) {
    *error = no_room(b, bytes);
    return std::nullopt;
  }
  return InFlight{nullptr, *offset, nullptr, 0};
}

}  // namespace

Status attach_buffer(BufferScope scope, void* buf, size_t size) {
  if (const AttachedBuffer* b = find(scope)) {
    return Status::error(MPI_ERR_BUFFER,
                         (b->automatic ? std::string("MPI_BUFFER_AUTOMATIC")
                                       : "a buffer of " + std::to_string(b->size) + " bytes") +
                             " is attached already (detach it first)");
  }
  AttachedBuffer& b = buffers()[scope.key()];
  b.automatic = buf == MPI_BUFFER_AUTOMATIC;
  b.base = b.automatic ? nullptr : static_cast<unsigned char*>(buf);
  b.size = b.automatic ? 0 : size;
  b.space.reset(b.size);
  return Status::success();
}

size_t attached_size(BufferScope scope) {
  const AttachedBuffer* b = find(scope);
  return b == nullptr ? 0 : b->size;
}

Status detach_buffer(BufferScope scope, void** buf, size_t* size) {
  AttachedBuffer* b = find(scope);
  if (b == nullptr) {
    *buf = nullptr;
    *size = 0;
    return Status::success();
  }
  wait_sent(scope);
  *buf = b->automatic ? MPI_BUFFER_AUTOMATIC : b->base;
  *size = b->size;
  buffers().erase(scope.key());
  return Status::success();
}

void flush_buffer(BufferScope scope) { wait_sent(scope); }

void start_flush(BufferScope scope, Request* r) {
  r->kind = WeftRequestKind::kActivity;
  r->comm = scope.kind == BufferScope::Kind::kComm ? scope.handle : MPI_COMM_SELF;
  auto* flush = new BufferFlush(scope, &r->completion);
  r->activity = flush;
  flush->advance();
  if (!flush->finished()) world().progress.activate(flush);
}

void forget_buffer(BufferScope scope) {
  if (find(scope) == nullptr) return;
  wait_sent(scope);
  buffers().erase(scope.key());
}

Status start_buffered_send(const Comm& comm, const void* buf, size_t count, const Datatype& type,
                           int dest, int tag, Request* r) {
  if (dest == MPI_PROC_NULL) return start_send(comm, nullptr, 0, dest, tag, SendMode::kStandard, r);
  AttachedBuffer* b = buffer_for(comm);
  if (b == nullptr) {
    return Status::error(MPI_ERR_BUFFER,
                         "no buffer is attached for buffered mode (call MPI_Buffer_attach, "
                         "MPI_Comm_attach_buffer or MPI_Session_attach_buffer first)");
  }
  const size_t bytes = count * type.size();
  Status error;
  std::optional<InFlight> slot = place(*b, bytes, &error);
  if (!slot) return error;
  unsigned char* copy = slot->own_copy ? slot->own_copy.get() : b->base + slot->offset;
  if (bytes > 0 && type.is_contiguous(count) && !gpu::typed_on_device(buf, count, type)) {
    std::memcpy(copy, type.data_start(buf), bytes);
  } else if (bytes > 0) {
    WEFT_TRY(gpu::pack_typed(buf, count, type, copy));
  }
  Request* send = world().requests.acquire();
  if (Status s = start_send(comm, copy, bytes, dest, tag, SendMode::kStandard, send); !s.ok()) {
    world().requests.release(send);
    if (!b->automatic) b->space.release(slot->offset);
    return s;
  }
  slot->send = send;
  slot->seq = ++b->buffered;
  b->in_flight.push_back(std::move(*slot));
  r->comm = comm.handle;
  r->kind = WeftRequestKind::kSend;
  r->completion.done = true;
  return Status::success();
}

}  // namespace weft::pt2pt
