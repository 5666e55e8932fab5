// What partitioned communication puts on the wire: match bits on the reserved context pair, and
// the control message of the handshake that pairs a send with its receive.
#pragma once
#include <cstdint>

#include "pt2pt/match_bits.hpp"
#include "runtime/comm/context_ids.hpp"

namespace weft::partitioned {

// Data on the pair's first context: the receive's channel in the source field, the send
// partition's index in the tag field. Control messages on the second: the sender's world rank.
inline constexpr uint32_t kDataContext = 2 * ContextIds::kPartitionedPair;
inline constexpr uint32_t kControlContext = kDataContext + 1;
inline constexpr uint32_t kMaxChannels = uint32_t(match_bits::kMaxRanks);
inline constexpr int64_t kMaxSendPartitions = int64_t(match_bits::kTagMask) + 1;
inline constexpr uint32_t kNoChannel = ~uint32_t{0};

constexpr uint64_t data_bits(uint32_t channel, int64_t partition) {
  return match_bits::make_send(kDataContext, int(channel), int(partition), true);
}
constexpr uint64_t control_bits(int world_rank) {
  return match_bits::make_send(kControlContext, world_rank, 0, true);
}
inline constexpr match_bits::RecvMatch kAnyControl =
    match_bits::make_recv(kControlContext, match_bits::kAnySource, match_bits::kAnyTag, true);

// A send's setup (sender to receiver) or the receiver's answer (receiver to sender).
struct Control {
  enum Kind : uint32_t { kSetup = 1, kAnswer = 2 };
  uint32_t kind = kSetup;
  uint32_t context = 0;     // the communicator's point-to-point context id
  int32_t sender_rank = 0;  // the send side's rank in that communicator
  int32_t tag = 0;
  uint32_t send_id = 0;           // the send request in the sending process (answers go to it)
  uint32_t channel = kNoChannel;  // answer: the receive's channel, kNoChannel if they differ
  int32_t receiver_rank = 0;      // answer: the receive side's rank in the communicator
  int32_t sender_world = 0;       // setup: where the answer goes
  uint64_t partitions = 0;        // setup: send partitions; answer: receive partitions
  uint64_t bytes = 0;             // total bytes of the side that sent this
};

}  // namespace weft::partitioned
