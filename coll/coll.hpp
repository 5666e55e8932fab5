// The collective front: one call, described by its CollArgs and buffers, is run blocking,
// started nonblocking, or prepared as a persistent request. Selection, schedule building and
// execution happen here; argument checking happens before, in runtime/c_api/.
#pragma once
#include "coll/algorithm.hpp"
#include "coll/executor.hpp"
#include "coll/mismatch_check.hpp"
#include "coll/typed_buffer.hpp"
#include "runtime/comm/comm.hpp"
#include "runtime/op/op.hpp"
#include "runtime/request.hpp"
#include "runtime/tools/counters.hpp"

namespace weft::coll {

struct CallSpec {
  CollArgs args;  // rank, size and segment_bytes are filled in from the communicator
  Binding binding;
  Reduction reduction;  // reductions only
  // Sides whose datatypes are not contiguous: binding.send/recv then point at the user's buffer
  // and the schedule works on a packed copy (the receive side is packed at each start too, for
  // in-place calls and the parts a collective leaves alone, and unpacked at the end).
  TypedBuffer send_typed, recv_typed;
  // In place with a packed receive side: the input starts this many bytes into it (-1: no); in
  // place at a scatter root with a packed send side, the output this many bytes into that.
  ptrdiff_t send_in_packed_recv = -1, recv_in_packed_send = -1;
  // In-place all-to-all: at every start, copy this many bytes of the output aside and send
  // from the copy.
  size_t stage_recv_bytes = 0;
  // How messages name the call; filled in by the C API only while WEFT_CHECK_COLLECTIVES is on.
  CallLabel label;
};

// The call's spec is completed (rank, size, segment size) and may be moved from. With
// WEFT_CHECK_COLLECTIVES=1 the call is first checked against the other members' (blocking for
// the nonblocking forms too; persistent ones at each MPI_Start).
Status run_blocking(Comm& comm, CallSpec& spec);
// *out becomes a request for the running collective.
Status start_nonblocking(Comm& comm, CallSpec& spec, Request** out);
// *out becomes an inactive persistent request; MPI_Start runs it.
Status init_persistent(Comm& comm, CallSpec& spec, Request** out);
// The algorithm a call would use (weft_info and tests).
const Algorithm* choose(const Comm& comm, CallSpec& spec);
// The MPI_T counter of calls that `a` runs (runtime/tools/pvars.cpp names them); none for an
// intercommunicator algorithm, which is not among algorithms_for(kind).
tools::Counter* call_counter(const Algorithm& a);

}  // namespace weft::coll
