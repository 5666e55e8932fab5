// Handing a text to the caller's buffer of `capacity` bytes, as the MPI_Get_* string calls do.
#pragma once
#include <cstddef>
#include <string>

namespace weft::capi {

// Copies at most capacity - 1 bytes of `text` and a NUL to `out`; *len: the bytes copied.
void copy_out_string(const std::string& text, char* out, int* len, size_t capacity);

}  // namespace weft::capi
