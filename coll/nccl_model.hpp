// The α-β-γ model's choice between NCCL and Weft's schedules for a blocking collective on
// device buffers: NCCL's ring algorithms priced with the model's NCCL parameters, Weft's chosen
// schedule priced as on host memory plus the copies between device and host memory its device
// paths make (coll/device_mirror.hpp, coll/device_run.hpp). Pure arithmetic on values every
// rank of a call shares, so every rank makes the same choice.
#pragma once
#include <cstddef>

#include "coll/select.hpp"

namespace weft::coll {

// The ranks' agreement before a call may go to NCCL (a 16-byte allreduce of Weft's: log2(p)
// rounds of a link's α). Every such call pays it, also where some rank's buffers turn out to be
// host memory and Weft's schedule runs after all.
double agreement_seconds(int size, const CostModel& model, bool spans_nodes);

// Predicted seconds of `kind` through NCCL on `size` ranks, `bytes` being the call's measure
// (coll/nccl_call.hpp nccl_candidate: the vector, or all blocks). NCCL's rings (Patarasuk and
// Yuan, "Bandwidth optimal all-reduce algorithms for clusters of workstations", JPDC 2009):
// allreduce 2(p-1) steps moving 2(p-1)/p of the bytes, allgather, reduce_scatter and alltoall
// p-1 steps moving (p-1)/p, bcast and reduce p-1 steps of pipeline fill moving all of them.
// Each step costs a link's α; a call costs alpha_nccl_us more, and the agreement. Across nodes
// the links are the other-node α and β.
double nccl_seconds(CollKind kind, int size, size_t bytes, const CostModel& model,
                    bool spans_nodes);

// Predicted seconds of a Weft schedule costing `cost` (`host_seconds` on host memory) when the
// user's buffers hold `device_bytes` of device data: mirrored (at most `mirror_limit`), one
// copy in and one out around the host run; otherwise a copy each way per round, every byte
// moved crossing between device and host memory at both ends.
double weft_device_seconds(double host_seconds, const Cost& cost, size_t device_bytes,
                           size_t mirror_limit, const CostModel& model);

// The most of a call's time on host buffers the agreement may add: the ranks cannot know before
// it whether every buffer is on the device, and host-buffer calls in processes that use CUDA
// must not get much slower for NCCL's sake.
inline constexpr double kAgreementShare = 0.1;

// A device call's predictions: NCCL's, that of the schedule the selector would run on device
// buffers and on host buffers, and the agreement's.
struct DevicePrediction {
  double nccl = 0;
  double weft = 0;
  const Algorithm* schedule = nullptr;
  double host = 0;
  double agreement = 0;
  // Whether NCCL is worth asking about: its agreement costs at most kAgreementShare of the call
  // on host buffers.
  bool worth_agreeing() const { return agreement <= kAgreementShare * host; }
};
// For a call NCCL can take whose measure is `bytes`; its send and receive sides are taken to
// be on the device, `bytes` each.
DevicePrediction predict_device_call(const Selector& selector, const CollArgs& args, size_t bytes,
                                     size_t mirror_limit);
// The same for a call no agreement precedes (on an application's stream, where the ranks
// settle NCCL once for the communicator instead).
inline DevicePrediction without_agreement(DevicePrediction p) {
  p.nccl -= p.agreement;
  p.agreement = 0;
  return p;
}

}  // namespace weft::coll
