// Barrier over point-to-point on the communicator's collective context.
#pragma once
#include "runtime/comm.hpp"

namespace weft::coll {

Status barrier(const Comm& comm);

}  // namespace weft::coll
