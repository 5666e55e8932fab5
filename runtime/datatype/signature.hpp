// A datatype's type signature: the sequence of predefined types its typemap holds, in order,
// kept as nested repeats (a vector of a million doubles is one entry). It answers MPI_Get_elements
// and tells whether a derived type is made of a single predefined type.
#pragma once
#include <cstddef>
#include <vector>

#include "mpi.h"

namespace weft {

// `count` elements of the predefined type `basic` (a run), or `count` repeats of `body` (when
// `basic` is MPI_DATATYPE_NULL).
struct SignatureSegment {
  MPI_Datatype basic = MPI_DATATYPE_NULL;
  size_t count = 0;
  std::vector<SignatureSegment> body;
  size_t bytes = 0;     // packed bytes of one iteration
  size_t elements = 0;  // basic elements of one iteration (a pair type such as MPI_2INT holds two)
};

using Signature = std::vector<SignatureSegment>;

// The signature of one element of the predefined type `basic`.
Signature basic_signature(MPI_Datatype basic);
// Appends `count` repeats of `body`, merging runs of the same predefined type.
void append_repeat(Signature* out, size_t count, const Signature& body);

// Basic elements in the first `bytes` bytes of packed data of any number of elements whose
// signature is `sig` (one element packs to `element_bytes`); -1 when `bytes` ends inside a basic
// element (a message whose signature does not match).
long long signature_elements(const Signature& sig, size_t element_bytes, size_t bytes);
// The one predefined type the signature is made of, and how many of it one element holds;
// MPI_DATATYPE_NULL (count 0) when it mixes types or is empty.
MPI_Datatype signature_basic_type(const Signature& sig, size_t* count);

}  // namespace weft
