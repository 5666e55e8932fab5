// Data representations by name: the predefined "native", "internal" and "external32", and those
// registered with MPI_Register_datarep (kept for the life of the process, as the standard says).
#pragma once
#include <string>

#include "io/view.hpp"
#include "mpi.h"
#include "runtime/status.hpp"

namespace weft::io {

struct UserDatarep {
  MPI_Datarep_conversion_function* read = nullptr;
  MPI_Datarep_conversion_function* write = nullptr;
  MPI_Datarep_conversion_function_c* read_c = nullptr;
  MPI_Datarep_conversion_function_c* write_c = nullptr;
  MPI_Datarep_extent_function* extent = nullptr;
  void* extra_state = nullptr;
};

// MPI_ERR_DUP_DATAREP for a name already known (predefined or registered); MPI_ERR_ARG for a
// name longer than MPI_MAX_DATAREP_STRING - 1 or empty.
Status register_datarep(const std::string& name, const UserDatarep& rep);
// How the view stores data under `name`: MPI_ERR_UNSUPPORTED_DATAREP for an unknown name;
// MPI_ERR_UNSUPPORTED_OPERATION for a registered one (its conversion functions are not called
// yet).
Status find_datarep(const std::string& name, Representation* out);

}  // namespace weft::io
