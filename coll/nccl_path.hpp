// NCCL as one more way to run blocking collectives on device buffers: an NCCL communicator per
// MPI communicator (built at its first NCCL call from a unique id Weft broadcasts, destroyed
// with it), the choice of NCCL for a call (the α-β-γ model, coll/nccl_model.hpp, or
// WEFT_<COLL>_ALGORITHM=nccl), and the fallback to Weft's schedules where NCCL cannot be used.
#pragma once
#include <cstddef>
#include <string>

#include "coll/coll.hpp"
#include "coll/nccl_call.hpp"
#include "coll/nccl_model.hpp"

namespace weft::coll {

// Whether a call NCCL can take goes to it when its buffers are on the device: always when
// NCCL is forced; never when WEFT_<COLL>_ALGORITHM forces a schedule of Weft's that takes the
// call (`schedule_forced`); else when the model predicts NCCL faster and the agreement is worth
// its cost (DevicePrediction::worth_agreeing).
inline bool nccl_wanted(bool nccl_forced, bool schedule_forced, const DevicePrediction& p) {
  return nccl_forced || (!schedule_forced && p.worth_agreeing() && p.nccl < p.weft);
}
// The same with what WEFT_<COLL>_ALGORITHM forces for `kind` as `selector` holds it.
inline bool nccl_wanted(const Selector& selector, CollKind kind, const DevicePrediction& p) {
  return nccl_wanted(selector.nccl_forced(kind),
                     p.schedule != nullptr && p.schedule == selector.forced(kind), p);
}

// Runs a blocking collective through NCCL when it is wanted, NCCL is usable on `comm` and every
// rank's buffers are on the device; *status is then its outcome and the answer true. False
// (the same on every rank): Weft's schedules run it. Where NCCL cannot be used on `comm` (no
// library, initialisation refused), that is remembered for `comm`, and said once on stderr
// when the user forced NCCL. A process without CUDA device memory never asks the other ranks:
// every rank of a job is taken to have CUDA or none to have it.
bool run_on_nccl(Comm& comm, CallSpec& spec, Status* status);

// For calls NCCL runs on an application's CUDA stream (runtime/streams/): makes `comm`'s NCCL
// communicator unless an earlier call did (collective over `comm`: every rank calls it at the
// same point, holding the call lock), and says whether it can be used, the same on every rank.
Status prepare_nccl(Comm& comm, bool* usable);
// Enqueues `call` (no staging of its own) on the application's `stream` through the NCCL
// communicator prepare_nccl made usable, and returns; a failure of an earlier such call on the
// communicator is returned instead.
Status start_nccl(Comm& comm, const NcclCall& call, void* stream);

// For weft_info: "NCCL 2.28.9 (libnccl.so.2)", or why NCCL cannot be used; true when it loads.
bool describe_nccl(std::string* text);

}  // namespace weft::coll
