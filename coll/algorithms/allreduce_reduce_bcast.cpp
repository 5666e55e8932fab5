// Allreduce as a binomial reduce to rank 0 followed by a binomial broadcast from it. The reduce
// folds in rank order, so this is the choice for non-commutative ops on long vectors.
// Cost: 2·ceil(log2 p)·(α + nβ) + ceil(log2 p)·nγ.
#include "coll/algorithms/all.hpp"
#include "coll/patterns.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  CollArgs part = a;
  part.root = 0;
  part.kind = CollKind::kReduce;
  kReduceBinomial.build(part, s);
  const StepId reduced = s.join_all();
  part.kind = CollKind::kBcast;
  s.set_floor(reduced);
  kBcastBinomial.build(part, s);
  s.set_floor(kNoStep);
}

Cost cost(const CollArgs& a) {
  CollArgs part = a;
  part.root = 0;
  const Cost r = kReduceBinomial.cost(part), b = kBcastBinomial.cost(part);
  return {r.rounds + b.rounds, r.bytes + b.bytes, r.reduced};
}

}  // namespace

extern const Algorithm kAllreduceReduceBcast{"reduce_bcast", CollKind::kAllreduce, nullptr, cost,
                                             build};

}  // namespace weft::coll
