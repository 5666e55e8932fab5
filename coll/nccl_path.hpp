// NCCL as one more way to run blocking collectives on device buffers: an NCCL communicator per
// MPI communicator (built at its first NCCL call from a unique id Weft broadcasts, destroyed
// with it), the choice of NCCL for a call, and the fallback to Weft's schedules where NCCL
// cannot be used. The choice is a setting (WEFT_NCCL_MIN_BYTES, WEFT_<COLL>_ALGORITHM=nccl),
// not a prediction of the α-β-γ model.
#pragma once
#include <cstddef>
#include <string>

#include "coll/coll.hpp"

namespace weft::coll {

// Whether a call NCCL can take goes to it when its buffers are on the device: always when
// forced, else when its buffer (nccl_candidate's measure) holds at least `min_bytes`.
inline bool nccl_wanted(bool forced, size_t bytes, size_t min_bytes) {
  return forced || bytes >= min_bytes;
}

// WEFT_NCCL_MIN_BYTES, read once.
size_t nccl_min_bytes();

// Runs a blocking collective through NCCL when it is wanted, NCCL is usable on `comm` and every
// rank's buffers are on the device; *status is then its outcome and the answer true. False
// (the same on every rank): Weft's schedules run it. Where NCCL cannot be used on `comm` (no
// library, initialisation refused), that is remembered for `comm`, and said once on stderr
// when the user forced NCCL. A process without CUDA device memory never asks the other ranks:
// every rank of a job is taken to have CUDA or none to have it.
bool run_on_nccl(Comm& comm, CallSpec& spec, Status* status);

// For weft_info: "NCCL 2.28.9 (libnccl.so.2)", or why NCCL cannot be used; true when it loads.
bool describe_nccl(std::string* text);

}  // namespace weft::coll
