// First-fit allocation of the attached buffer's bytes to buffered messages.
#include "pt2pt/bsend_space.hpp"

#include <algorithm>

namespace weft::pt2pt {

void BsendSpace::reset(size_t capacity) {
  capacity_ = capacity;
  free_bytes_ = capacity;
  free_.clear();
  used_.clear();
  if (capacity > 0) free_.emplace(0, capacity);
}

size_t BsendSpace::charge(size_t bytes) {
  return bytes == 0 ? kAlign : (bytes + kAlign - 1) / kAlign * kAlign;
}

std::optional<size_t> BsendSpace::allocate(size_t bytes) {
  const size_t need = charge(bytes);
  if (need < bytes) return std::nullopt;  // rounding overflowed
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const auto [offset, length] = *it;
    if (length < need) continue;
    free_.erase(it);
    // Charges are multiples of kAlign, so every block and free range starts at one.
    if (length > need) free_.emplace(offset + need, length - need);
    used_.emplace(offset, need);
    free_bytes_ -= need;
    return offset;
  }
  return std::nullopt;
}

void BsendSpace::release(size_t offset) {
  auto used = used_.find(offset);
  if (used == used_.end()) return;
  size_t start = offset, length = used->second;
  used_.erase(used);
  free_bytes_ += length;
  auto next = free_.lower_bound(start);
  if (next != free_.end() && next->first == start + length) {
    length += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      length += prev->second;
      free_.erase(prev);
    }
  }
  free_.emplace(start, length);
}

size_t BsendSpace::largest_free() const {
  size_t largest = 0;
  for (const auto& [offset, length] : free_) largest = std::max(largest, length);
  return largest;
}

}  // namespace weft::pt2pt
