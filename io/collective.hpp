// Collective data access (the _all, ordered, split and nonblocking collective calls): the steps
// every rank of a file's communicator takes together, run by the calling thread (blocking
// calls) or by the file's collective thread (nonblocking and split calls, background.hpp).
#pragma once
#include <cstddef>

#include "io/access.hpp"
#include "io/transfer.hpp"

namespace weft::io {

struct CollectiveAccess {
  Status local;  // this rank's checks and staging: if any rank's failed, the call fails on all
  Pointer where = Pointer::kExplicit;  // kOrdered: the start comes from the shared pointer
  MPI_Offset start = 0;                // in etypes of the view, unless kOrdered
  Staged staged;
};

// Runs `c` on f, collectively: agrees on c.local, finds the start of an ordered access, moves
// the data (two_phase.hpp) and converts a read's data into memory. *stream is the stream bytes
// moved (fewer only when a read meets the end of the file), *memory the memory bytes.
Status run_collective(File& f, CollectiveAccess& c, size_t* stream, size_t* memory);

}  // namespace weft::io
