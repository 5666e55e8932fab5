// Algorithm selection: the cheapest algorithm that can take the call under the α-β-γ model,
// unless WEFT_<COLL>_ALGORITHM forces one (which is honoured whenever it can take the call).
#pragma once
#include <string>
#include <vector>

#include "coll/algorithm.hpp"
#include "coll/tuning.hpp"

namespace weft::coll {

// Predicted seconds for a cost under a model.
double predict_seconds(const Cost& cost, const CostModel& model);

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
  // Forces `name` for `kind` ("" or "auto": choose by the model). Fails naming the choices if
  // `kind` has no such algorithm.
  Status force(CollKind kind, const std::string& name);
  const Algorithm* forced(CollKind kind) const { return forced_[int(kind)]; }

  // Every algorithm for the call with its prediction, in registry order.
  std::vector<Candidate> candidates(const CollArgs& args) const;
  // The algorithm to run: the forced one if it accepts the call, else the cheapest that does;
  // on an intercommunicator, its one algorithm (coll/registry.hpp inter_algorithm).
  const Algorithm* choose(const CollArgs& args) const;

 private:
  CostModel model_;
  const Algorithm* forced_[kNumCollKinds] = {};
};

}  // namespace weft::coll
