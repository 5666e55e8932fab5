// Context ids: every communicator owns a pair (point-to-point id 2k, collective id 2k+1) that
// every member agrees on. Each process tracks which pair numbers it has in use; creating a
// communicator ANDs the members' free masks (an allreduce over the parent, window by window of
// kWindowPairs) and takes the lowest pair free everywhere, so ids never collide however many
// communicators come and go.
#pragma once
#include <cstdint>
#include <vector>

#include "pt2pt/match_bits.hpp"

namespace weft {

class ContextIds {
 public:
  static constexpr uint32_t kPairs = match_bits::kMaxContexts / 2;
  static constexpr uint32_t kWindowPairs = 4096;
  static constexpr uint32_t kWindowWords = kWindowPairs / 64;

  // Reserved pairs no communicator ever gets: the traffic of partitioned communication
  // (pt2pt/partitioned/), the agreement of MPI_Comm_create_from_group's members, who have no
  // parent communicator (runtime/session/), and the link of two connecting roots
  // (runtime/comm/connect.cpp).
  static constexpr uint32_t kPartitionedPair = 2;
  static constexpr uint32_t kFromGroupPair = 3;
  // The two roots of MPI_Comm_accept/MPI_Comm_connect (and spawn) between their own processes.
  static constexpr uint32_t kConnectPair = 4;
  // A transport's own protocol messages (pt2pt/match_bits.hpp kTransportContext).
  static constexpr uint32_t kTransportPair = match_bits::kTransportContext / 2;

  // Pairs 0 (MPI_COMM_WORLD), 1 (MPI_COMM_SELF) and the reserved pairs are in use from the start.
  ContextIds();
  // Free pairs of window `w` as a bit mask (bit set = free here), kWindowWords words.
  void free_mask(uint32_t window, uint64_t* words) const;
  bool is_free(uint32_t pair) const { return (used_[pair / 64] >> (pair % 64) & 1) == 0; }
  void take(uint32_t pair) { used_[pair / 64] |= uint64_t{1} << (pair % 64); }
  void release(uint32_t pair) { used_[pair / 64] &= ~(uint64_t{1} << (pair % 64)); }

 private:
  std::vector<uint64_t> used_;
};

// The lowest pair number set in a window's mask, or -1.
int64_t lowest_free(uint32_t window, const uint64_t* words);

}  // namespace weft
