// The operations the libfabric transport (pt2pt/ofi_transport.cpp) hands to libfabric: one Op per
// send, receive, probe or RMA access in flight, kept in a pool and reused, so a message
// allocates nothing.
#pragma once
#include <rdma/fabric.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "gpu/memory.hpp"
#include "pt2pt/transport.hpp"

namespace weft::ofi {

// One operation libfabric holds: its fi_context comes first, so the op_context of a completion
// is the Op. Its slot names it in a synchronous send's acknowledgement.
struct Op {
  // kSegmented: a send larger than the provider's largest message (pt2pt/ofi_segments.cpp);
  // kPiece: one piece of one, sent or received.
  enum class Kind : uint8_t { kSend, kSyncSend, kRecv, kProbe, kAck, kRma, kSegmented, kPiece };
  fi_context ctx{};
  Kind kind = Kind::kSend;
  uint32_t slot = 0;  // index in the pool
  Completion* c = nullptr;
  int peer = -1;  // kRma: the target
  void* user_buf = nullptr;            // receive: where the data goes; segmented send: the data
  bool bounced = false;                // receive: posted on `bounce`, copied to user_buf
  gpu::MemoryKind buffer_kind = gpu::MemoryKind::kHost;  // receive: where user_buf is
  size_t capacity = 0;                 // receive: the buffer's length
  bool sent = false, acked = false;    // synchronous send: both needed to complete
  bool probed = false, found = false;  // probe: answered, and whether a message matched
  uint64_t tag = 0;
  size_t len = 0;
  // Segmented messages: a piece's message; the pieces not yet done; at the sender the
  // receiver's slot, which names the pieces, at the receiver the sender's; the next byte to
  // send or post a receive for; pieces granted and not yet sent.
  Op* parent = nullptr;
  fi_addr_t reply_to = FI_ADDR_NOTAVAIL;  // a segmented receive's sender, for its grants
  size_t pieces_left = 0;
  uint32_t stream = 0;
  size_t next = 0;
  size_t granted = 0;
  int error = 0;
  std::vector<char> bounce;  // kept across reuses of the Op
  fid_mr* device_mr = nullptr;  // a device buffer's registration, closed when the Op is done

  void reset(Kind k, Completion* completion) {
    kind = k;
    c = completion;
    peer = -1;
    user_buf = nullptr;
    bounced = false;
    buffer_kind = gpu::MemoryKind::kHost;
    capacity = 0;
    sent = acked = probed = found = false;
    tag = 0;
    len = 0;
    parent = nullptr;
    reply_to = FI_ADDR_NOTAVAIL;
    pieces_left = 0;
    stream = 0;
    next = 0;
    granted = 0;
    error = 0;
  }
};

class OpPool {
 public:
  Op* take(Op::Kind kind, Completion* c) {
    if (free_.empty()) {
      ops_.push_back(std::make_unique<Op>());
      ops_.back()->slot = uint32_t(ops_.size() - 1);
      free_.push_back(ops_.back()->slot);
    }
    Op* op = ops_[free_.back()].get();
    free_.pop_back();
    op->reset(kind, c);
    return op;
  }
  void give_back(Op* op) { free_.push_back(op->slot); }
  // The Op of a slot, or null for a slot never handed out.
  Op* at(uint64_t slot) const { return slot < ops_.size() ? ops_[size_t(slot)].get() : nullptr; }

 private:
  std::vector<std::unique_ptr<Op>> ops_;  // never shrinks: libfabric holds pointers to them
  std::vector<uint32_t> free_;
};

}  // namespace weft::ofi
