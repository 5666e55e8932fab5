// The "external32" data representation (MPI 4.0 §14.5.2) behind MPI_Pack_external and friends:
// every basic element big-endian at the standard's fixed size (MPI_LONG is 4 bytes, MPI_LONG_DOUBLE
// a 16-byte IEEE binary128, pairs without padding), in type signature order.
#pragma once
#include <cstddef>

#include "runtime/datatype/datatype.hpp"

namespace weft {

// Bytes of one element of `t` in external32.
size_t external32_size(const Datatype& t);
// Writes `count` elements at `buf` (committed type) as count × external32_size(t) bytes at `out`;
// MPI_ERR_CONVERSION when a value does not fit its external size (a long beyond 32 bits).
Status pack_external32(const Datatype& t, const void* buf, size_t count, unsigned char* out);
// Reads count × external32_size(t) bytes at `in` into `count` elements at `buf`.
void unpack_external32(const Datatype& t, const unsigned char* in, size_t count, void* buf);

}  // namespace weft
