// The α-β-γ model's choice between NCCL and Weft's schedules on device buffers
// (coll/nccl_model.hpp, coll/nccl_path.hpp nccl_wanted): NCCL's rings and the schedules' copies
// priced from the model's values, and the choice as forcing, the agreement's cost and the size
// of the call decide it.
#include "coll/nccl_model.hpp"

#include <catch2/catch.hpp>

#include "coll/nccl_path.hpp"
#include "coll/regular_call.hpp"
#include "coll/select.hpp"

using namespace weft;
using namespace weft::coll;

TEST_CASE("nccl choice: forced NCCL always, a forced schedule never, else the cheaper prediction") {
  const DevicePrediction nccl_cheaper{1e-5, 2e-5, nullptr}, weft_cheaper{3e-5, 2e-5, nullptr};
  CHECK(nccl_wanted(false, false, nccl_cheaper));
  CHECK_FALSE(nccl_wanted(false, false, weft_cheaper));
  CHECK(nccl_wanted(true, false, weft_cheaper));
  CHECK_FALSE(nccl_wanted(false, true, nccl_cheaper));
  // An agreement of more than a tenth of the call on host buffers: not asked, unless forced.
  const DevicePrediction dear_agreement{1e-5, 2e-5, nullptr, 1e-5, 2e-6};
  CHECK_FALSE(dear_agreement.worth_agreeing());
  CHECK_FALSE(nccl_wanted(false, false, dear_agreement));
  CHECK(nccl_wanted(true, false, dear_agreement));
  CHECK(DevicePrediction{1e-5, 2e-5, nullptr, 1e-5, 1e-6}.worth_agreeing());
}

TEST_CASE("nccl model: NCCL's rings priced step by step, the agreement included") {
  CostModel m;
  m.alpha_us = 2;
  m.alpha_inter_us = 5;
  m.beta_inter_ns_per_byte = 0.5;
  m.alpha_nccl_us = 10;
  m.beta_nccl_ns_per_byte = 0.25;
  const size_t n = 1 << 20;
  // allreduce on 4 ranks: 2 agreement rounds, 6 steps, 2 * 3/4 of the bytes.
  CHECK(nccl_seconds(CollKind::kAllreduce, 4, n, m, false) ==
        Approx(10e-6 + 2 * 2e-6 + 6 * 2e-6 + 1.5 * n * 0.25e-9));
  // allgather on 8 ranks: 3 agreement rounds, 7 steps, 7/8 of the bytes.
  CHECK(nccl_seconds(CollKind::kAllgather, 8, n, m, false) ==
        Approx(10e-6 + 3 * 2e-6 + 7 * 2e-6 + 7.0 / 8 * n * 0.25e-9));
  // bcast on 4 ranks: every byte once along the pipeline.
  CHECK(nccl_seconds(CollKind::kBcast, 4, n, m, false) ==
        Approx(10e-6 + 2 * 2e-6 + 3 * 2e-6 + n * 0.25e-9));
  // Across nodes: the other-node link, the slower of the two betas.
  CHECK(nccl_seconds(CollKind::kReduceScatter, 2, n, m, true) ==
        Approx(10e-6 + 5e-6 + 5e-6 + 0.5 * n * 0.5e-9));
  // One rank: the call alone.
  CHECK(nccl_seconds(CollKind::kAllreduce, 1, n, m, false) == Approx(10e-6));
}

TEST_CASE("nccl model: Weft's schedule on device data pays copies, mirrored or per round") {
  CostModel m;
  m.alpha_device_us = 10;
  m.beta_device_ns_per_byte = 0.1;
  Cost cost;
  cost.rounds = 4;
  cost.bytes = 8000;
  // Mirrored: one copy in, one out, the device bytes once.
  CHECK(weft_device_seconds(1e-5, cost, 2000, 1 << 20, m) == Approx(1e-5 + 20e-6 + 2000 * 0.1e-9));
  // Beyond the mirror: a copy each way per round, the moved bytes at both ends.
  CHECK(weft_device_seconds(1e-5, cost, 2000, 1000, m) ==
        Approx(1e-5 + 8 * 10e-6 + 2 * 8000 * 0.1e-9));
}

TEST_CASE("nccl model: the choice follows the parameters and the size of the call") {
  RegularCall call;
  call.kind = CollKind::kAllreduce;
  call.size = 4;
  Selector s;
  // Defaults: NCCL's one call costs less than the two copies around even a tiny host run, but
  // the agreement would double a tiny call on host buffers, so it is not asked for.
  call.bytes = 8;
  DevicePrediction p = predict_device_call(s, regular_args(call), call.bytes, 1 << 20);
  REQUIRE(p.schedule == s.choose(regular_args(call)));
  CHECK(p.nccl < p.weft);
  CHECK(p.agreement == Approx(2 * s.model().alpha_us * 1e-6));
  CHECK_FALSE(nccl_wanted(false, false, p));
  call.bytes = 1 << 20;  // a call of hundreds of microseconds: NCCL
  p = predict_device_call(s, regular_args(call), call.bytes, 1 << 20);
  CHECK(nccl_wanted(false, false, p));
  call.bytes = 8;
  // Cheap copies and an NCCL call of a millisecond: small calls stay with Weft, large ones go to
  // NCCL, whose links are faster than host memory and the copies.
  CostModel m = s.model();
  m.alpha_device_us = 1;
  m.alpha_nccl_us = 1000;
  s.set_model(m);
  p = predict_device_call(s, regular_args(call), call.bytes, 1 << 20);
  CHECK_FALSE(nccl_wanted(false, false, p));
  call.bytes = size_t(256) << 20;
  p = predict_device_call(s, regular_args(call), call.bytes, 1 << 20);
  CHECK(nccl_wanted(false, false, p));
  // A schedule forced by WEFT_ALLREDUCE_ALGORITHM that takes the call keeps it.
  REQUIRE(s.force(CollKind::kAllreduce, "ring").ok());
  p = predict_device_call(s, regular_args(call), call.bytes, 1 << 20);
  CHECK(p.schedule == s.forced(CollKind::kAllreduce));
}
