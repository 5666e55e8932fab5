// NCCL against Weft's schedules on device buffers, in the α-β-γ model (coll/nccl_model.hpp).
#include "coll/nccl_model.hpp"

#include <algorithm>
#include <cmath>

namespace weft::coll {

double agreement_seconds(int size, const CostModel& m, bool spans_nodes) {
  const double alpha = (spans_nodes ? m.alpha_inter_us : m.alpha_us) * 1e-6;
  return size > 1 ? std::ceil(std::log2(double(size))) * alpha : 0;
}

double nccl_seconds(CollKind kind, int size, size_t bytes, const CostModel& m, bool spans_nodes) {
  const double p = size, n = double(bytes);
  double steps = p - 1, moved = p > 1 ? n * (p - 1) / p : 0;
  if (kind == CollKind::kAllreduce) {
    steps *= 2;
    moved *= 2;
  } else if (kind == CollKind::kBcast || kind == CollKind::kReduce) {
    moved = p > 1 ? n : 0;
  }
  const double alpha = (spans_nodes ? m.alpha_inter_us : m.alpha_us) * 1e-6;
  const double beta = (spans_nodes ? std::max(m.beta_nccl_ns_per_byte, m.beta_inter_ns_per_byte)
                                   : m.beta_nccl_ns_per_byte) *
                      1e-9;
  return m.alpha_nccl_us * 1e-6 + agreement_seconds(size, m, spans_nodes) + steps * alpha +
         moved * beta;
}

double weft_device_seconds(double host_seconds, const Cost& cost, size_t device_bytes,
                           size_t mirror_limit, const CostModel& m) {
  const double alpha = m.alpha_device_us * 1e-6, beta = m.beta_device_ns_per_byte * 1e-9;
  if (device_bytes <= mirror_limit) return host_seconds + 2 * alpha + double(device_bytes) * beta;
  return host_seconds + 2 * cost.rounds * alpha + 2 * cost.bytes * beta;
}

DevicePrediction predict_device_call(const Selector& selector, const CollArgs& args, size_t bytes,
                                     size_t mirror_limit) {
  DevicePrediction out;
  const bool far = spans_nodes(args);
  out.nccl = nccl_seconds(args.kind, args.size, bytes, selector.model(), far);
  out.schedule = selector.choose(args);
  if (out.schedule == nullptr) return out;
  const Cost cost = out.schedule->cost(args);
  out.host = predict_seconds(cost, selector.model(), far);
  out.agreement = agreement_seconds(args.size, selector.model(), far);
  out.weft = weft_device_seconds(out.host, cost, 2 * bytes, mirror_limit, selector.model());
  return out;
}

}  // namespace weft::coll
