// Binomial-tree broadcast: relative rank r receives the whole message from r minus its lowest
// set bit, then forwards it to r + m for each power of two m below that bit, largest subtree
// first. Cost: ceil(log2 p)·(α + nβ).
#include "coll/algorithms/all.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  const int r = to_relative(a.rank, a.root, a.size);
  StepId have = kNoStep;
  if (r != 0) have = s.recv(to_absolute(binomial_parent(r), a.root, a.size), recv_buf(), a.bytes);
  for (int m = binomial_child_top(r, a.size); m >= 1; m /= 2) {
    if (r + m < a.size) s.send(to_absolute(r + m, a.root, a.size), recv_buf(), a.bytes, {have});
  }
}

Cost cost(const CollArgs& a) {
  const double rounds = ceil_log2(a.size);
  return {rounds, rounds * double(a.bytes), 0};
}

}  // namespace

extern const Algorithm kBcastBinomial{"binomial", CollKind::kBcast, nullptr, cost, build};

}  // namespace weft::coll
