// The attached buffer of buffered mode and the sends of the copies in it.
#include "pt2pt/buffered.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "pt2pt/bsend_space.hpp"
#include "runtime/world.hpp"

namespace weft::pt2pt {
namespace {

static_assert(BsendSpace::kAlign == MPI_BSEND_OVERHEAD, "a message may take its size + kAlign");

// A copy in the attached buffer, sent by a pooled request of our own.
struct InFlight {
  Request* send;
  size_t offset;
};

struct AttachedBuffer {
  unsigned char* base = nullptr;
  size_t size = 0;
  bool attached = false;
  BsendSpace space;
  std::vector<InFlight> in_flight;
};

AttachedBuffer& attached_buffer() {
  static AttachedBuffer b;
  return b;
}

// Frees the space of the copies whose sends have completed.
void reclaim(AttachedBuffer& b) {
  std::erase_if(b.in_flight, [&](const InFlight& f) {
    if (!f.send->completion.done) return false;
    b.space.release(f.offset);
    world().requests.release(f.send);
    return true;
  });
}

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

}  // namespace

Status attach_buffer(void* buf, size_t size) {
  AttachedBuffer& b = attached_buffer();
  if (b.attached) {
    return Status::error(MPI_ERR_BUFFER, "a buffer of " + std::to_string(b.size) +
                                             " bytes is attached already (detach it first)");
  }
  b.base = static_cast<unsigned char*>(buf);
  b.size = size;
  b.attached = true;
  b.space.reset(size);
  return Status::success();
}

size_t attached_size() { return attached_buffer().size; }

Status detach_buffer(void** buf, size_t* size) {
  AttachedBuffer& b = attached_buffer();
  if (!b.attached) {
    *buf = nullptr;
    *size = 0;
    return Status::success();
  }
  world().progress.wait_until([&b] {
    return std::all_of(b.in_flight.begin(), b.in_flight.end(),
                       [](const InFlight& f) { return f.send->completion.done; });
  });
  reclaim(b);
  *buf = b.base;
  *size = b.size;
  b.base = nullptr;
  b.size = 0;
  b.attached = false;
  b.space.reset(0);
  return Status::success();
}

Status start_buffered_send(const Comm& comm, const void* buf, size_t count, const Datatype& type,
                           int dest, int tag, Request* r) {
  if (dest == MPI_PROC_NULL) return start_send(comm, nullptr, 0, dest, tag, SendMode::kStandard, r);
  AttachedBuffer& b = attached_buffer();
  if (!b.attached) {
    return Status::error(MPI_ERR_BUFFER,
                         "no buffer is attached for buffered mode (call MPI_Buffer_attach first)");
  }
  const size_t bytes = count * type.size();
  reclaim(b);
  std::optional<size_t> offset = b.space.allocate(bytes);
  if (!offset) {  // sends may have completed without anyone looking
    world().progress.poll();
    reclaim(b);
    offset = b.space.allocate(bytes);
  }
  if (!offset) return no_room(b, bytes);
  unsigned char* copy = b.base + *offset;
  if (bytes > 0 && type.is_contiguous(count)) {
    std::memcpy(copy, type.data_start(buf), bytes);
  } else if (bytes > 0) {
    type.pack(buf, count, copy);
  }
  Request* send = world().requests.acquire();
  if (Status s = start_send(comm, copy, bytes, dest, tag, SendMode::kStandard, send); !s.ok()) {
    world().requests.release(send);
    b.space.release(*offset);
    return s;
  }
  b.in_flight.push_back({send, *offset});
  r->comm = comm.handle;
  r->kind = WeftRequestKind::kSend;
  r->completion.done = true;
  return Status::success();
}

}  // namespace weft::pt2pt
