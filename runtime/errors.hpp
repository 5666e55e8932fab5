// MPI error codes: a code is an error class plus a slot holding the full message of one failure,
// so MPI_Error_string can return "MPI_Send: invalid rank dest=9 ..." rather than just the class.
#pragma once
#include <string>

namespace weft {

inline constexpr int kClassBits = 6;  // classes are < 64 (see include/mpi.h)
inline constexpr int kClassMask = (1 << kClassBits) - 1;

// Stores `message` and returns a code whose class is `error_class` (0 stays 0).
int make_error_code(int error_class, const std::string& message);
// The class of a code (MPI_Error_class). Returns -1 if `code` is not a valid code.
int error_class_of(int code);
// Text for a code: its stored message if still held, else the class description.
std::string error_string(int code);
// Fixed description of a class, e.g. "MPI_ERR_RANK: invalid rank".
const char* error_class_description(int error_class);

}  // namespace weft
