// Moving the bytes of one access between memory and the file: conversion to the view's data
// stream (convert.hpp: packing non-contiguous memory, external32, a registered
// representation), the file ranges they go to, and the independent path (sieve.*).
#pragma once
#include <cstddef>
#include <vector>

#include "io/access.hpp"
#include "io/convert.hpp"
#include "io/view.hpp"

namespace weft::io {

// One access's data as the file holds it (its "stream" bytes) and the file ranges they go to.
struct Staged {
  Conversion conv;
  std::vector<Chunk> chunks;  // in stream order, which is file order (place())
  std::vector<unsigned char> staging;
  unsigned char* user = nullptr;  // `direct`: the memory holds the stream bytes itself
  size_t len = 0;                 // stream bytes
  bool write = false, direct = false;
  void* buf = nullptr;
  size_t count = 0;

  unsigned char* data() { return direct ? user : staging.data(); }
};

// Prepares the data of `a` for f's view: for a write, the stream bytes (converted here, in the
// calling thread); for a read, room for them. MPI_ERR_TYPE when the memory type is not whole
// etypes of the view.
Status stage(const File& f, const Access& a, Staged* out);
// The file ranges of the staged data placed at stream byte `first` of f's view; a write to a
// view that holds no data is MPI_ERR_IO.
Status place(const File& f, MPI_Offset first, Staged* s);
// After `stream` stream bytes moved: a read's data goes to memory; *memory is the memory bytes
// (they differ from the stream bytes in other representations than native).
Status unstage(Staged& s, size_t stream, size_t* memory);

// An independent access, blocking: the staged data of `s` placed at stream byte `first`;
// *stream and *memory as above. A read stops at the end of the file.
Status transfer(const File& f, MPI_Offset first, Staged& s, size_t* stream, size_t* memory);

}  // namespace weft::io
