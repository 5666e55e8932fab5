// The node-region algorithms' shared pieces (coll/algorithms/region_parts.hpp).
#include "coll/algorithms/region_parts.hpp"

#include <vector>

namespace weft::coll {

bool region_takes(const CollArgs& a, size_t bytes_per_rank) {
  return a.remote_size == 0 && a.size > 1 && a.region_bytes > 0 && bytes_per_rank <= a.region_bytes;
}

void fold_posts(const CollArgs& a, Schedule& s, StepId posted, const Block* part) {
  // One slot per rank; slot r ends holding x0 op ... op xr.
  const size_t n = part != nullptr ? part->bytes : a.bytes;
  const size_t at = part != nullptr ? part->offset : 0;
  const BufRef slots = s.scratch(size_t(a.size) * n);
  auto slot = [&](int r) { return slots.at(size_t(r) * n); };
  std::vector<StepId> arrived(size_t(a.size));
  for (int r = 0; r < a.size; ++r) {
    if (r == a.rank) {
      arrived[size_t(r)] = s.copy(send_buf(at), slot(r), n);
    } else {
      arrived[size_t(r)] =
          part != nullptr ? s.fetch_part(r, at, slot(r), n) : s.fetch(r, slot(r), n);
    }
  }
  StepId folded = arrived[0];
  for (int r = 1; r < a.size; ++r)
    folded = s.reduce(slot(r - 1), slot(r), n, {folded, arrived[size_t(r)]});
  s.copy(slot(a.size - 1), recv_buf(), n, {folded, posted});
}

void fold_arrivals(const CollArgs& a, Schedule& s) {
  const size_t n = a.bytes;
  const BufRef slots = s.scratch(size_t(a.size) * n);
  auto slot = [&](int r) { return slots.at(size_t(r) * n); };
  StepId folded = s.arrive(a.size, send_buf(), n, slots);
  for (int r = 1; r < a.size; ++r) folded = s.reduce(slot(r - 1), slot(r), n, {folded});
  s.copy(slot(a.size - 1), recv_buf(), n, {folded});
}

bool gathers_arrivals(std::span<const Block> blocks) {
  if (blocks.empty() || !folds_arrivals(blocks[0].bytes, int(blocks.size()))) return false;
  for (size_t r = 0; r < blocks.size(); ++r)
    if (blocks[r].bytes != blocks[0].bytes || blocks[r].offset != r * blocks[0].bytes) return false;
  return true;
}

Cost fold_cost(const CollArgs& a) {
  const double p = a.size, n = double(a.bytes);
  Cost c;
  c.syncs = 1;
  c.region_bytes = (p + 1) * n;  // the others' posts fetched, the own input and the result copied
  c.reduced = (p - 1) * n;
  return c;
}

}  // namespace weft::coll
