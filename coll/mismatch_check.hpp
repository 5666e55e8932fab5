// The debug check WEFT_CHECK_COLLECTIVES=1 adds before every collective a program calls: the
// members exchange a fixed-size description of their calls and each compares every one with its
// own, so that mismatched calls fail on every rank, naming both, instead of hanging.
#pragma once
#include <cstdint>

#include "runtime/comm/comm.hpp"
#include "runtime/status.hpp"

namespace weft::coll {

struct CallSpec;

// How the C API names a call in a message, and the parts of it the CollArgs do not hold. Plain
// bytes: it travels between ranks inside the exchanged description.
struct CallLabel {
  char fn[40] = {};       // "MPI_Allreduce"; empty: an internal call, never checked
  char type[48] = {};     // the datatype shown after the count; empty: none
  int64_t count = -1;     // -1: no count shown
  int32_t op = -1;        // the MPI_Op of a reduction; -1: none
  bool in_place = false;  // sendbuf (recvbuf for scatter) is MPI_IN_PLACE on this rank
};

// Success when the check is off, the call is internal (no label) or every member of `comm`
// makes a call that matches this one; else MPI_ERR_OTHER naming both calls. Blocks until every
// member has reached its own check.
Status check_matching_calls(Comm& comm, const CallSpec& spec);

}  // namespace weft::coll
