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

// Calls visit(basic type) for each basic element of one pass over `sig`, in order; stops early
// (and returns false) when visit returns false.
template <typename Visit>
bool for_each_basic(const Signature& sig, Visit& visit) {
  for (const SignatureSegment& s : sig) {
    for (size_t i = 0; i < s.count; ++i) {
      const bool go = s.basic != MPI_DATATYPE_NULL ? visit(s.basic) : for_each_basic(s.body, visit);
      if (!go) return false;
    }
  }
  return true;
}

// The sum of weight(basic type) over the basic elements of one pass over `sig`, one call of
// `weight` per run (repeats are multiplied, not walked): e.g. the bytes of one element in a
// representation that gives each predefined type its own size.
template <typename Weight>
size_t signature_sum(const Signature& sig, Weight&& weight) {
  size_t n = 0;
  for (const SignatureSegment& s : sig)
    n += s.count * (s.basic != MPI_DATATYPE_NULL ? weight(s.basic) : signature_sum(s.body, weight));
  return n;
}

}  // namespace weft
