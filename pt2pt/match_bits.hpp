// The 64-bit match-bits layout used for every tagged message: internal | context | source | tag.
// One constexpr definition shared by all transports; wildcards are expressed as masks.
#pragma once
#include <cstdint>

namespace weft::match_bits {

// bit 63: internal traffic (runtime protocol), never matched by user receives
// bits 62..44: context id (19 bits), bits 43..24: source rank in the communicator (20 bits),
// bits 23..0: MPI tag (24 bits, non-negative)
inline constexpr int kTagBits = 24;
inline constexpr int kSourceBits = 20;
inline constexpr int kContextBits = 19;
inline constexpr int kSourceShift = kTagBits;
inline constexpr int kContextShift = kTagBits + kSourceBits;
inline constexpr int kInternalShift = kContextShift + kContextBits;
static_assert(kInternalShift == 63, "layout must fill 64 bits");

inline constexpr uint64_t kTagMask = (uint64_t{1} << kTagBits) - 1;
inline constexpr uint64_t kSourceMask = ((uint64_t{1} << kSourceBits) - 1) << kSourceShift;
inline constexpr uint64_t kContextMask = ((uint64_t{1} << kContextBits) - 1) << kContextShift;
inline constexpr uint64_t kInternalBit = uint64_t{1} << kInternalShift;
// Bits that identify the sender of a message (UCX's tag_sender_mask).
inline constexpr uint64_t kSenderMask = kInternalBit | kContextMask | kSourceMask;

inline constexpr int kMaxTag = static_cast<int>(kTagMask);                 // MPI_TAG_UB
inline constexpr int kMaxRanks = 1 << kSourceBits;
inline constexpr uint32_t kMaxContexts = uint32_t{1} << kContextBits;

// The context of a transport's own protocol messages (the acknowledgements of synchronous sends
// in pt2pt/ofi_transport.cpp): its pair is reserved (runtime/comm/context_ids.hpp), so no receive
// Weft posts ever compares equal to it.
inline constexpr uint32_t kTransportContext = 2 * 5;

inline constexpr int kAnySource = -1;  // same values as MPI_ANY_SOURCE / MPI_ANY_TAG
inline constexpr int kAnyTag = -1;

// Bits a sender puts on a message from `source` (its rank in the communicator).
constexpr uint64_t make_send(uint32_t context, int source, int tag, bool internal = false) {
  return (internal ? kInternalBit : 0) | (uint64_t{context} << kContextShift) |
         (uint64_t(uint32_t(source)) << kSourceShift) | (uint64_t(uint32_t(tag)) & kTagMask);
}

struct RecvMatch {
  uint64_t bits;
  uint64_t mask;
};

// Bits and mask a receive posts; kAnySource/kAnyTag clear the corresponding mask bits.
constexpr RecvMatch make_recv(uint32_t context, int source, int tag, bool internal = false) {
  RecvMatch m{(internal ? kInternalBit : 0) | (uint64_t{context} << kContextShift),
              kInternalBit | kContextMask};
  if (source != kAnySource) {
    m.bits |= uint64_t(uint32_t(source)) << kSourceShift;
    m.mask |= kSourceMask;
  }
  if (tag != kAnyTag) {
    m.bits |= uint64_t(uint32_t(tag)) & kTagMask;
    m.mask |= kTagMask;
  }
  return m;
}

constexpr int source_of(uint64_t bits) { return int((bits & kSourceMask) >> kSourceShift); }
constexpr int tag_of(uint64_t bits) { return int(bits & kTagMask); }
constexpr uint32_t context_of(uint64_t bits) { return uint32_t((bits & kContextMask) >> kContextShift); }
constexpr bool is_internal(uint64_t bits) { return (bits & kInternalBit) != 0; }
constexpr bool matches(uint64_t sent, RecvMatch m) { return (sent & m.mask) == (m.bits & m.mask); }

}  // namespace weft::match_bits
