// One-sided communication calls (MPI 4.1 §12.3): put, get, the accumulates, fetch-and-op and
// compare-and-swap, on any datatypes at either end. Each checks its epoch and the target range,
// then completes before returning (rma/access.hpp), so the request-based forms return requests
// that are already complete. Arguments are validated by the C boundary; MPI_PROC_NULL targets
// move nothing.
#pragma once
#include "mpi.h"
#include "rma/window.hpp"
#include "runtime/datatype/datatype.hpp"

namespace weft::rma {

struct Typed {  // a buffer of `count` elements of `type`
  const void* buf = nullptr;
  size_t count = 0;
  const Datatype* type = nullptr;
};

struct TargetRef {
  int rank = MPI_PROC_NULL;
  MPI_Aint disp = 0;
  size_t count = 0;
  const Datatype* type = nullptr;
};

Status put(Window& w, const Typed& origin, const TargetRef& target);
Status get(Window& w, const Typed& origin, const TargetRef& target);
// `result` is used by get_accumulate only (MPI_NO_OP fetches without changing the target).
Status accumulate(Window& w, const Typed& origin, const TargetRef& target, MPI_Op op);
Status get_accumulate(Window& w, const Typed& origin, const Typed& result, const TargetRef& target,
                      MPI_Op op);
Status compare_and_swap(Window& w, const void* value, const void* compare, void* result,
                        const Datatype* type, int rank, MPI_Aint disp);
// After a fetch-and-op that succeeded: keeps the reduction of a predefined `op` on predefined
// `type` for MPI_Fetch_and_op's short path (rma/fast_path.hpp) on this window.
void remember_fetch_op(Window& w, MPI_Op op, MPI_Datatype type);

}  // namespace weft::rma
