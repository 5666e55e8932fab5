// Algorithm selection: the cheapest algorithm that can take the call under the α-β-γ model,
// unless WEFT_<COLL>_ALGORITHM forces one (which is honoured whenever it can take the call).
#pragma once
#include <string>
#include <vector>

#include "coll/algorithm.hpp"
#include "coll/tuning.hpp"

namespace weft::coll {

// Predicted seconds for a cost under a model. On a call that `spans_nodes`, the rounds and bytes
// not marked as within one node are charged at the other-node α and β: all of a flat
// algorithm's, since on any placement but the luckiest nearly every round has a message that
// crosses nodes, and a round lasts as long as its slowest message. (That overcharges the rounds
// of a tree that stay on one node under block placement, and undercharges the rounds in which
// all ranks of a node cross at once and share its link.) Otherwise everything is same-node.
double predict_seconds(const Cost& cost, const CostModel& model, bool spans_nodes);

// Why `algorithm` cannot take the call ("needs a commutative op"), or "" when it can. Found by
// asking its accepts() again with the call's restrictions lifted one at a time.
std::string rejection_reason(const Algorithm& algorithm, const CollArgs& args);

struct Candidate {
  const Algorithm* algorithm = nullptr;
  bool accepts = false;  // can take this call at all
  double seconds = 0;    // predicted time (meaningful when accepts)
};

class Selector {
 public:
  void set_model(const CostModel& model) { model_ = model; }
  const CostModel& model() const { return model_; }
  // Forces `name` for `kind` ("" or "auto": choose by the model; "nccl": NCCL where it can run
  // the call, coll/nccl_path.hpp, else the model's choice). Fails naming the choices if `kind`
  // has no such algorithm.
  Status force(CollKind kind, const std::string& name);
  const Algorithm* forced(CollKind kind) const { return forced_[int(kind)]; }
  bool nccl_forced(CollKind kind) const { return nccl_forced_[int(kind)]; }

  // Every algorithm for the call with its prediction, in registry order.
  std::vector<Candidate> candidates(const CollArgs& args) const;
  // The algorithm to run: the forced one if it accepts the call, else the cheapest that does;
  // on an intercommunicator, its one algorithm (coll/registry.hpp inter_algorithm).
  const Algorithm* choose(const CollArgs& args) const;

 private:
  CostModel model_;
  const Algorithm* forced_[kNumCollKinds] = {};
  bool nccl_forced_[kNumCollKinds] = {};
};

}  // namespace weft::coll
