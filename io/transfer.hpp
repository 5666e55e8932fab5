// Moving the bytes of one access between memory and the file: conversion to the file's
// representation (packing non-contiguous memory, external32), then one pread/pwrite per
// contiguous range of the view, under an fcntl byte-range lock in atomic mode.
#pragma once
#include <cstddef>

#include "io/access.hpp"

namespace weft::io {

// Moves the data of `a` at stream byte `first` of f's view. *stream is the stream bytes moved,
// *memory the memory bytes (they differ under external32); a read stops at the end of the file.
Status transfer(File& f, MPI_Offset first, const Access& a, size_t* stream, size_t* memory);

}  // namespace weft::io
