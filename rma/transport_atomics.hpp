// Accumulates, MPI_Fetch_and_op and MPI_Compare_and_swap by the transport's own atomics
// (Transport::atomic: fi_atomic where libfabric offers FI_ATOMIC), decided per window and per
// basic datatype so that every accumulate on a location takes one path (MPI 4.1 §12.7.1: they
// must be atomic with respect to each other), and the rest by the active-message path.
#pragma once
#include "mpi.h"
#include "pt2pt/transport.hpp"
#include "rma/access.hpp"
#include "rma/window.hpp"
#include "runtime/comm/comm.hpp"

namespace weft::rma {

// The transport's element type of predefined `basic`, if it has one (signed and unsigned
// integers of 1, 2, 4 and 8 bytes, float, double).
bool atomic_type_of(MPI_Datatype basic, AtomicType* out);
// The transport's operation for accumulate op `op` (MPI_REPLACE: write; MPI_NO_OP: read).
bool atomic_op_of(MPI_Op op, AtomicOp* out);
// Whether `transport` does every operation MPI allows on elements of `type` atomically,
// fetching and not (and compare-and-swap, for integers).
bool transport_covers(const Transport& transport, AtomicType type);
// The types `transport` covers, one bit per AtomicType.
uint32_t covered_types(const Transport& transport);

// Collective over the window's communicator `wc`, after exchange_keys: the window's accumulates
// go by the transport's atomics where every member reaches every other member by the
// transport with a key, and this member itself too (its own key, through the transport), for
// the types every member's transport covers (w.atomic_types). Then the members' own memory is
// reached as a remote target's: no accumulate of those types bypasses the transport.
Status agree_transport_atomics(Window& w, Comm& wc);

// Whether an accumulate of `basic` elements to `span` goes by the transport's atomics.
bool by_transport_atomics(const Window& w, const TargetSpan& span, MPI_Datatype basic);
// An accumulate (with `old`: get-accumulate) of the span's runs, element by element, waited for
// until done at the target.
Status transport_accumulate(Window& w, const TargetSpan& span, const unsigned char* packed,
                            const Combine& how, unsigned char* old);
Status transport_compare_and_swap(Window& w, const TargetSpan& span, const void* value,
                                  const void* compare, void* old, MPI_Datatype basic);

}  // namespace weft::rma
