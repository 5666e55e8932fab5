// Moving the bytes of one access between memory and the file: conversion to the file's
// representation (packing non-contiguous memory, external32), then the independent path
// (sieve.*) or, for a collective call, collective buffering (two_phase.*).
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "io/access.hpp"
#include "io/view.hpp"

namespace weft::io {

// One access's data as the file holds it (its "stream" bytes) and the file ranges they go to.
struct Staged {
  std::vector<Chunk> chunks;  // in stream order, which is file order
  std::vector<unsigned char> staging;
  unsigned char* data = nullptr;  // the stream bytes: the memory itself or `staging`
  size_t len = 0;
  bool write = false, ext32 = false, direct = false;
  std::shared_ptr<const Datatype> type;
  void* buf = nullptr;
  size_t count = 0;
};

// Prepares `a` at stream byte `first` of f's view: the chunks, and for a write the stream bytes.
Status stage(const File& f, MPI_Offset first, const Access& a, Staged* out);
// After `stream` stream bytes moved: a read's bytes go to memory; *memory is the memory bytes
// (they differ from the stream bytes under external32).
void unstage(Staged& s, size_t stream, size_t* memory);

// Moves the data of `a` at stream byte `first` of f's view. *stream is the stream bytes moved,
// *memory the memory bytes; a read stops at the end of the file. A collective access is
// collective here too: every rank must call it.
Status transfer(File& f, MPI_Offset first, const Access& a, size_t* stream, size_t* memory);

}  // namespace weft::io
