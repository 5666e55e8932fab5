// Group arithmetic (MPI 4.0 §7.3).
#include "runtime/comm/group_ops.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "mpi.h"

namespace weft::groups {
namespace {

std::string at(const char* arg, size_t i) { return std::string(arg) + "[" + std::to_string(i) + "]"; }

Status check_ranks(const Members& g, const std::vector<int>& ranks, const char* arg) {
  std::vector<bool> seen(g.size(), false);
  for (size_t i = 0; i < ranks.size(); ++i) {
    const int r = ranks[i];
    if (r < 0 || size_t(r) >= g.size()) {
      return Status::error(MPI_ERR_RANK, "invalid rank " + at(arg, i) + "=" + std::to_string(r) +
                                             " (the group has " + std::to_string(g.size()) +
                                             " ranks)");
    }
    if (seen[size_t(r)]) {
      return Status::error(MPI_ERR_RANK, "rank " + std::to_string(r) + " appears twice in " + arg +
                                             " (at " + at(arg, i) + ")");
    }
    seen[size_t(r)] = true;
  }
  return Status::success();
}

// The ranks the ranges name, in order; fails on a range outside the group, a zero stride or
// a rank named twice.
Status expand(const Members& g, const std::vector<RankRange>& ranges, std::vector<int>* out) {
  out->clear();
  for (size_t i = 0; i < ranges.size(); ++i) {
    const RankRange& r = ranges[i];
    const std::string name = at("ranges", i);
    if (r.stride == 0) return Status::error(MPI_ERR_ARG, "invalid stride 0 in " + name);
    for (int v : {r.first, r.last}) {
      if (v < 0 || size_t(v) >= g.size()) {
        return Status::error(MPI_ERR_RANK, "invalid rank " + std::to_string(v) + " in " + name +
                                               " (the group has " + std::to_string(g.size()) +
                                               " ranks)");
      }
    }
    if ((r.stride > 0 && r.first > r.last) || (r.stride < 0 && r.first < r.last)) continue;
    for (long long v = r.first; r.stride > 0 ? v <= r.last : v >= r.last; v += r.stride)
      out->push_back(int(v));
  }
  return check_ranks(g, *out, "ranges");
}

}  // namespace

int compare(const Members& a, const Members& b) {
  if (a == b) return MPI_IDENT;
  if (a.size() != b.size()) return MPI_UNEQUAL;
  Members x = a, y = b;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return x == y ? MPI_SIMILAR : MPI_UNEQUAL;
}

int rank_of(const Members& g, int world_rank) {
  const auto it = std::find(g.begin(), g.end(), world_rank);
  return it == g.end() ? MPI_UNDEFINED : int(it - g.begin());
}

Members set_union(const Members& a, const Members& b) {
  Members out = a;
  const std::unordered_set<int> in_a(a.begin(), a.end());
  for (int w : b)
    if (!in_a.count(w)) out.push_back(w);
  return out;
}

Members intersection(const Members& a, const Members& b) {
  const std::unordered_set<int> in_b(b.begin(), b.end());
  Members out;
  for (int w : a)
    if (in_b.count(w)) out.push_back(w);
  return out;
}

Members difference(const Members& a, const Members& b) {
  const std::unordered_set<int> in_b(b.begin(), b.end());
  Members out;
  for (int w : a)
    if (!in_b.count(w)) out.push_back(w);
  return out;
}

Status incl(const Members& g, const std::vector<int>& ranks, Members* out) {
  WEFT_TRY(check_ranks(g, ranks, "ranks"));
  out->clear();
  for (int r : ranks) out->push_back(g[size_t(r)]);
  return Status::success();
}

Status excl(const Members& g, const std::vector<int>& ranks, Members* out) {
  WEFT_TRY(check_ranks(g, ranks, "ranks"));
  std::vector<bool> drop(g.size(), false);
  for (int r : ranks) drop[size_t(r)] = true;
  out->clear();
  for (size_t i = 0; i < g.size(); ++i)
    if (!drop[i]) out->push_back(g[i]);
  return Status::success();
}

Status range_incl(const Members& g, const std::vector<RankRange>& ranges, Members* out) {
  std::vector<int> ranks;
  WEFT_TRY(expand(g, ranges, &ranks));
  return incl(g, ranks, out);
}

Status range_excl(const Members& g, const std::vector<RankRange>& ranges, Members* out) {
  std::vector<int> ranks;
  WEFT_TRY(expand(g, ranges, &ranks));
  return excl(g, ranks, out);
}

Status translate(const Members& from, const std::vector<int>& ranks, const Members& to,
                 std::vector<int>* out) {
  std::unordered_map<int, int> position;
  for (size_t i = 0; i < to.size(); ++i) position[to[i]] = int(i);
  out->clear();
  for (size_t i = 0; i < ranks.size(); ++i) {
    const int r = ranks[i];
    if (r == MPI_PROC_NULL) {
      out->push_back(MPI_PROC_NULL);
      continue;
    }
    if (r < 0 || size_t(r) >= from.size()) {
      return Status::error(MPI_ERR_RANK, "invalid rank " + at("ranks1", i) + "=" +
                                             std::to_string(r) + " (group1 has " +
                                             std::to_string(from.size()) + " ranks)");
    }
    const auto it = position.find(from[size_t(r)]);
    out->push_back(it == position.end() ? MPI_UNDEFINED : it->second);
  }
  return Status::success();
}

}  // namespace weft::groups
