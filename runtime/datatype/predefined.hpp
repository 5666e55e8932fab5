// The predefined datatypes as data: MPI name, size, extent and alignment, and the scalar fields
// external32 converts (MPI 4.0 §14.5.2 and its table of sizes). Handles follow include/mpi.h
// (1..67). A pair type such as MPI_DOUBLE_INT is the C struct {double; int} (MPI 4.0 §6.9.4):
// its size is the sum of its fields (12), its extent the struct's sizeof (16), so its data has
// a gap where the struct has padding.
#pragma once
#include <cstddef>
#include <cstdint>

#include "mpi.h"

namespace weft {

// How external32 writes a scalar: big-endian, at its external size.
enum class ScalarKind : uint8_t {
  kRaw,         // bytes copied as they are (char, byte, bool, MPI_PACKED)
  kSigned,      // two's complement integer, sign-extended or narrowed
  kUnsigned,    // unsigned integer, zero-extended or narrowed
  kFloat,       // IEEE 754 of the same size: byte order only
  kLongDouble,  // native long double <-> IEEE 754 binary128
};

struct ScalarField {
  uint8_t offset;    // in the native element (the C struct); packed data holds the fields back to
                     // back, so there a field starts at the sum of the native sizes before it
  uint8_t native;    // native bytes
  uint8_t external;  // external32 bytes
  ScalarKind kind;
};

struct PredefinedType {
  const char* name;
  size_t size;    // data bytes of one element (MPI_Type_size): the sum of the fields
  size_t extent;  // bytes from one element to the next (MPI_Type_get_extent): the C sizeof
  size_t align;
  bool pair;  // MPI_2INT, MPI_DOUBLE_INT, ...: two basic elements (MPI 4.0 §6.9.4)
  int nfields;
  ScalarField fields[2];  // complex numbers and pairs have two
};

inline constexpr MPI_Datatype kLastPredefinedType = MPIX_BFLOAT16;
inline bool is_predefined_type(MPI_Datatype h) { return h > 0 && h <= kLastPredefinedType; }
// The entry of a predefined handle (is_predefined_type(h) must hold).
const PredefinedType& predefined_type(MPI_Datatype h);
// The bytes of `count` elements of `type`, and of one element, where `type` is predefined with
// its elements back to back (size equal to extent, not zero) and count is not negative; false
// otherwise. The short paths (coll/region_short.cpp, pt2pt/short_paths.cpp) take only these.
bool plain_bytes(MPI_Count count, MPI_Datatype type, size_t* bytes, size_t* elem);
// A buffer the general path would accept for `bytes`: not MPI_IN_PLACE (a short path that allows
// it has replaced it), and not null unless empty.
inline bool plain_buffer(const void* buf, size_t bytes) {
  return buf != MPI_IN_PLACE && (buf != nullptr || bytes == 0);
}

// MPI_Type_get_value_index (MPI 4.1 §6.9.4): the predefined pair type of a value type and an
// index type (MPI_FLOAT and MPI_INT: MPI_FLOAT_INT; Fortran's MPI_REAL twice: MPI_2REAL), or
// MPI_DATATYPE_NULL where no pair type is predefined.
MPI_Datatype value_index_pair(MPI_Datatype value, MPI_Datatype index);

}  // namespace weft
