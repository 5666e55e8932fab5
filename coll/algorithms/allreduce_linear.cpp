// Linear allreduce, the reference form: the linear reduce to rank 0 (a fold in rank order) and
// the linear broadcast from it. Cost: 2(p-1)·(α + nβ) + (p-1)·nγ.
#include "coll/algorithms/all.hpp"

namespace weft::coll {
namespace {

void build(const CollArgs& a, Schedule& s) {
  CollArgs part = a;
  part.root = 0;
  part.kind = CollKind::kReduce;
  kReduceLinear.build(part, s);
  const StepId reduced = s.join_all();
  part.kind = CollKind::kBcast;
  s.set_floor(reduced);
  kBcastLinear.build(part, s);
  s.set_floor(kNoStep);
}

Cost cost(const CollArgs& a) {
  CollArgs part = a;
  part.root = 0;
  const Cost r = kReduceLinear.cost(part), b = kBcastLinear.cost(part);
  return {r.rounds + b.rounds, r.bytes + b.bytes, r.reduced};
}

}  // namespace

extern const Algorithm kAllreduceLinear{"linear", CollKind::kAllreduce, nullptr, cost, build};

}  // namespace weft::coll
