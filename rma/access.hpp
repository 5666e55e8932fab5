// Moving bytes between this process and a target's window memory along the runs of the target
// datatype (runtime/datatype/runs.hpp): load/store where the memory is mapped here, cross-memory
// attach (process_vm_readv/writev) for another process on this node. Neither needs the target's
// CPU, so a target computing outside MPI does not hold its origins up. A window in this
// process's GPU memory (Target::device) is reached with the device's copies.
#pragma once
#include <cstdint>
#include <vector>

#include "rma/window.hpp"
#include "runtime/datatype/runs.hpp"
#include "runtime/op/op.hpp"

namespace weft::rma {

// Where an operation lands: target memory at `address` (in the target's address space) plus
// each run's offset.
struct TargetSpan {
  const Target* target = nullptr;
  uint64_t address = 0;
  const Run* runs = nullptr;
  size_t run_count = 0;

  const Run* begin() const { return runs; }
  const Run* end() const { return runs + run_count; }
};

// The bytes the span's runs hold.
size_t span_bytes(const TargetSpan& span);
// The offsets from span.address that the runs reach: [lo, hi); {0, 0} for no runs.
struct RunBounds {
  ptrdiff_t lo = 0, hi = 0;
};
RunBounds span_bounds(const TargetSpan& span);

// Scatters `packed` (the runs' bytes back to back) into the target, or gathers them from it.
Status write_runs(const TargetSpan& span, const unsigned char* packed);
Status read_runs(const TargetSpan& span, unsigned char* packed);
// target = packed op target, element by element, under the target's accumulate mutex; `old`,
// unless null, first receives the target's previous contents (MPI_Get_accumulate). MPI_REPLACE
// and MPI_NO_OP come as `replace`/`no_op` with no kernel.
struct Combine {
  const Reduction* reduction = nullptr;  // predefined op bound to the target's basic type
  MPI_Op op = MPI_OP_NULL;               // the op itself, for a target that binds it again
  bool replace = false;
  bool no_op = false;
  MPI_Datatype basic = MPI_DATATYPE_NULL;  // the predefined type the target's type is made of
};
Status accumulate_runs(const TargetSpan& span, const unsigned char* packed, const Combine& how,
                       unsigned char* old);
// Compare-and-swap of one element of `bytes` bytes: old = target; if target == compare, then
// target = value. Under the accumulate mutex.
Status compare_and_swap(const TargetSpan& span, const void* value, const void* compare, void* old,
                        size_t bytes);

}  // namespace weft::rma
