// Context-id bookkeeping.
#include "runtime/comm/context_ids.hpp"

namespace weft {

ContextIds::ContextIds() : used_(kPairs / 64, 0) {
  take(0);
  take(1);
  take(kPartitionedPair);
  take(kFromGroupPair);
  take(kConnectPair);
  take(kTransportPair);
}

void ContextIds::free_mask(uint32_t window, uint64_t* words) const {
  for (uint32_t i = 0; i < kWindowWords; ++i) words[i] = ~used_[window * kWindowWords + i];
}

int64_t lowest_free(uint32_t window, const uint64_t* words) {
  for (uint32_t i = 0; i < ContextIds::kWindowWords; ++i) {
    if (words[i] != 0) {
      return int64_t(window) * ContextIds::kWindowPairs + int64_t(i) * 64 +
             __builtin_ctzll(words[i]);
    }
  }
  return -1;
}

}  // namespace weft
