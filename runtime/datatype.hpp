// Datatypes known to the runtime. For now the predefined (contiguous) types only; the derived
// datatype engine (issue: MPI surface) extends this table.
#pragma once
#include <cstddef>

#include "runtime/status.hpp"

namespace weft {

struct DatatypeInfo {
  const char* name;
  size_t size;  // bytes of one element
};

// Looks up a datatype handle; fails with MPI_ERR_TYPE naming `arg` and the value.
Status lookup_datatype(int handle, const char* arg, const DatatypeInfo** out);

}  // namespace weft
