// Planning a collective buffering access: one allgather of each rank's range, then the same
// arithmetic on every rank.
#include "io/cb_plan.hpp"

#include <algorithm>

#include "io/file_domains.hpp"
#include "io/sieve.hpp"

namespace weft::io {

// Exchanged per rank: lo, hi, pieces, bytes, hint, cb_nodes, buffer, alignment.
constexpr int kFields = 8;

Chunk CbPlan::window(size_t i, long long r) const {
  const MPI_Offset start = bounds[i] + r * buffer;
  const MPI_Offset end = std::min(bounds[i + 1], start + buffer);
  return {start, end > start ? size_t(end - start) : 0};
}

std::vector<int> choose_aggregators(const std::vector<int>& node_of, int count) {
  const int size = int(node_of.size());
  count = std::clamp(count, 1, size);
  std::vector<int> seen;                   // ranks counted so far on each node
  std::vector<std::pair<int, int>> order;  // (position on its node, rank)
  for (int r = 0; r < size; ++r) {
    const size_t node = size_t(node_of[size_t(r)]);
    if (seen.size() <= node) seen.resize(node + 1, 0);
    order.push_back({seen[node]++, r});
  }
  // Position first, then rank: the nodes' first ranks come in node order (their lowest ranks).
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<int> out;
  for (int k = 0; k < count; ++k) out.push_back(order[size_t(k)].second);
  std::sort(out.begin(), out.end());
  return out;
}

Status plan_collective(const File& f, bool write, const std::vector<Chunk>& chunks, CbPlan* out) {
  // This rank's range, piece count and bytes (a rank with no data has none), and its hints:
  // rank 0's are the ones used, so that ranks given different hints still take the same path.
  const Switch hint = write ? f.hints.cb_write : f.hints.cb_read;
  const long long align = f.hints.striping_unit > 0 ? f.hints.striping_unit : kDefaultAlignment;
  long long mine[kFields] = {0,
                             0,
                             (long long)chunks.size(),
                             0,
                             (long long)hint,
                             f.hints.cb_nodes,
                             f.hints.cb_buffer_size,
                             align};
  for (const Chunk& c : chunks) mine[3] += (long long)c.bytes;
  if (!chunks.empty()) {
    mine[0] = chunks.front().offset;
    mine[1] = chunks.back().offset + MPI_Offset(chunks.back().bytes);
  }
  std::vector<long long> all(size_t(kFields * f.size));
  if (PMPI_Allgather(mine, kFields, MPI_LONG_LONG, all.data(), kFields, MPI_LONG_LONG, f.comm) !=
      MPI_SUCCESS)
    return Status::error(MPI_ERR_OTHER, "could not exchange the ranges of a collective access");
  std::vector<std::pair<long long, long long>> ranges;
  bool several = false;
  long long pieces = 0, bytes = 0;
  for (int r = 0; r < f.size; ++r) {
    const long long* p = &all[size_t(kFields * r)];
    if (p[2] == 0) continue;
    several = several || p[2] > 1;
    pieces += p[2];
    bytes += p[3];
    ranges.push_back({p[0], p[1]});
  }
  *out = CbPlan{};
  if (ranges.empty()) return Status::success();
  std::sort(ranges.begin(), ranges.end());
  bool overlap = false;
  long long lo = ranges.front().first, hi = ranges.front().second;
  for (size_t k = 1; k < ranges.size(); ++k) {
    overlap = overlap || ranges[k].first < hi;
    hi = std::max(hi, ranges[k].second);
  }
  const auto agreed = Switch(all[4]);
  const bool small = bytes / pieces < (long long)kSmallPiece;
  out->use =
      agreed == Switch::kEnable || (agreed == Switch::kAutomatic && (several || overlap) && small);
  if (!out->use) return Status::success();
  out->aggregators = choose_aggregators(f.node_of, int(all[5]));
  out->bounds = domain_bounds(lo, hi, int(out->aggregators.size()), all[7]);
  out->buffer = std::max<MPI_Offset>(1, all[6]);
  MPI_Offset widest = 0;
  for (size_t i = 0; i + 1 < out->bounds.size(); ++i)
    widest = std::max(widest, out->bounds[i + 1] - out->bounds[i]);
  out->rounds = (widest + out->buffer - 1) / out->buffer;
  return Status::success();
}

}  // namespace weft::io
