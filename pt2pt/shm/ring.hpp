// One direction between two ranks of a node: a single-producer/single-consumer ring of 64-byte
// cells in the node segment, holding variable-length records (a 32-byte header, then payload).
// No locks and no system call: the producer publishes a record by a release store of its cell
// count; the consumer polls the header at its read position, so a small message costs the
// transfer of the one or two cache lines it occupies. Invariant: the header at the producer's
// write position is always zero (the producer zeroes the next one before publishing a record),
// so stale bytes of an earlier lap are never taken for a record.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace weft::shm {

inline constexpr size_t kCell = 64;

enum class RecordKind : uint16_t {
  kSkip = 1,     // filler to the end of the ring; the next record starts at cell 0
  kEager,        // a message whose payload follows the header
  kRendezvous,   // a large message the receiver copies from the sender (payload: its address)
  kAck,          // the receiver matched a synchronous eager message (cookie: the send)
  kFin,          // the receiver has copied a rendezvous message (cookie: the send)
  kSplitCopy,    // the receiver asks the sender to help copy a rendezvous message through the
                 // pair's copy slot (pt2pt/shm/segment.hpp); replaces kFin (cookie: the send)
  kCancel,       // the sender asks to withdraw an unmatched message (cookie: the send)
  kCancelReply,  // the answer; flags kWithdrawn if the message was taken back (cookie: the send)
  kDeviceRendezvous,  // a large message in the sender's GPU memory, which the receiver maps and
                      // copies (payload: a DeviceOffer, pt2pt/shm/device_offer.hpp)
  kDeviceRefused,     // the receiver could not map it (cookie: the send); the sender answers
  kStagedCopy,        // with a host copy of it to read as a rendezvous (payload: its address;
                      // flags kCopyFailed if the copy could not be made)
};

// Whether a record of this kind is a message the receiver copies from the sender.
inline bool copied_by_receiver(RecordKind kind) {
  return kind == RecordKind::kRendezvous || kind == RecordKind::kDeviceRendezvous;
}

// Flags of a record.
inline constexpr uint16_t kNeedsAck = 1;    // synchronous send: acknowledge when matched
inline constexpr uint16_t kWithdrawn = 2;   // kCancelReply: the message will never be received
inline constexpr uint16_t kCopyFailed = 4;  // kStagedCopy: the sender could not copy its message

struct RecordHeader {
  uint32_t cells;  // record length in cells; 0 while nothing is published here
  RecordKind kind;
  uint16_t flags;
  uint64_t bits;    // match bits
  uint64_t bytes;   // message length
  uint64_t cookie;  // the sender's handle of the send (acknowledgements name it)
  unsigned char* payload() { return reinterpret_cast<unsigned char*>(this + 1); }
};
static_assert(sizeof(RecordHeader) == 32);

// The ring's shared words, each on its own cache line.
struct alignas(kCell) RingControl {
  std::atomic<uint64_t> head{0};  // cells consumed (written by the consumer)
  alignas(kCell) std::atomic<uint32_t> producer_waiting{0};  // the producer waits for space
};

inline size_t cells_for(size_t payload_bytes) {
  return (sizeof(RecordHeader) + payload_bytes + kCell - 1) / kCell;
}

inline uint32_t load_cells(RecordHeader* h, std::memory_order order) {
  return std::atomic_ref<uint32_t>(h->cells).load(order);
}
inline void store_cells(RecordHeader* h, uint32_t n, std::memory_order order) {
  std::atomic_ref<uint32_t>(h->cells).store(n, order);
}

class RingWriter {
 public:
  RingWriter() = default;
  RingWriter(RingControl* control, unsigned char* cells, size_t capacity)
      : control_(control), cells_(cells), mask_(capacity - 1) {}

  // The largest payload a record can carry in this ring.
  size_t max_payload() const { return (mask_ + 1) / 2 * kCell - sizeof(RecordHeader); }

  // Writes one record, or returns false when the ring has no room for it now.
  bool write(RecordKind kind, uint16_t flags, uint64_t bits, uint64_t bytes, uint64_t cookie,
             const void* payload, size_t payload_bytes) {
    const size_t capacity = mask_ + 1;
    const size_t need = cells_for(payload_bytes);
    const size_t index = tail_ & mask_;
    const size_t skip = index + need > capacity ? capacity - index : 0;
    const size_t total = skip + need;
    // One cell beyond the record must be free too: it becomes the zeroed next header.
    if (tail_ + total + 1 - cached_head_ > capacity) {
      cached_head_ = control_->head.load(std::memory_order_acquire);
      if (tail_ + total + 1 - cached_head_ > capacity) return false;
    }
    RecordHeader* h = cell(skip != 0 ? 0 : index);
    if (payload_bytes != 0) std::memcpy(h->payload(), payload, payload_bytes);
    h->kind = kind;
    h->flags = flags;
    h->bits = bits;
    h->bytes = bytes;
    h->cookie = cookie;
    store_cells(cell((tail_ + total) & mask_), 0, std::memory_order_relaxed);
    store_cells(h, uint32_t(need), std::memory_order_release);
    if (skip != 0) {
      RecordHeader* s = cell(index);
      s->kind = RecordKind::kSkip;
      store_cells(s, uint32_t(skip), std::memory_order_release);
    }
    tail_ += total;
    return true;
  }

  RingControl* control() const { return control_; }

 private:
  RecordHeader* cell(size_t i) const { return reinterpret_cast<RecordHeader*>(cells_ + i * kCell); }

  RingControl* control_ = nullptr;
  unsigned char* cells_ = nullptr;
  size_t mask_ = 0;
  uint64_t tail_ = 0;
  uint64_t cached_head_ = 0;
};

class RingReader {
 public:
  RingReader() = default;
  RingReader(RingControl* control, unsigned char* cells, size_t capacity)
      : control_(control), cells_(cells), mask_(capacity - 1) {}

  // The next published record, or nullptr; stays the same until pop().
  RecordHeader* peek() {
    for (;;) {
      RecordHeader* h = cell(head_ & mask_);
      const uint32_t n = load_cells(h, std::memory_order_acquire);
      if (n == 0) return nullptr;
      if (h->kind != RecordKind::kSkip) {
        current_ = n;
        return h;
      }
      advance(n);
    }
  }
  // Whether a record is waiting (no side effects).
  bool ready() const { return load_cells(cell(head_ & mask_), std::memory_order_acquire) != 0; }
  // Whether another record is published behind the one peek() returned.
  bool more_behind() const {
    return load_cells(cell((head_ + current_) & mask_), std::memory_order_acquire) != 0;
  }
  // Consumes the record peek() returned.
  void pop() { advance(current_); }

  RingControl* control() const { return control_; }

 private:
  RecordHeader* cell(size_t i) const { return reinterpret_cast<RecordHeader*>(cells_ + i * kCell); }
  void advance(uint32_t n) {
    head_ += n;
    control_->head.store(head_, std::memory_order_release);
  }

  RingControl* control_ = nullptr;
  unsigned char* cells_ = nullptr;
  size_t mask_ = 0;
  uint64_t head_ = 0;
  uint32_t current_ = 0;
};

}  // namespace weft::shm
