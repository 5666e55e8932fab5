// Type signatures as nested repeats: construction, element counting, uniformity.
#include "runtime/datatype/signature.hpp"

#include "runtime/datatype/predefined.hpp"

namespace weft {
namespace {

void push(Signature* out, SignatureSegment s) {
  if (s.basic != MPI_DATATYPE_NULL && !out->empty() && out->back().basic == s.basic) {
    out->back().count += s.count;
    return;
  }
  out->push_back(std::move(s));
}

size_t total_bytes(const Signature& sig) {
  size_t n = 0;
  for (const SignatureSegment& s : sig) n += s.count * s.bytes;
  return n;
}

size_t total_elements(const Signature& sig) {
  size_t n = 0;
  for (const SignatureSegment& s : sig) n += s.count * s.elements;
  return n;
}

// Elements of a partial basic element of `basic` holding `bytes` (0 < bytes < size); -1 when the
// bytes do not end at an element boundary. Only a pair type has an inner boundary: the end of
// its first field (packed data has no padding).
long long partial_basic(MPI_Datatype basic, size_t bytes) {
  const PredefinedType& t = predefined_type(basic);
  if (t.pair && bytes == t.fields[0].native) return 1;
  return -1;
}

// Elements in the first `bytes` (< total) bytes of one pass over `sig`.
long long partial_elements(const Signature& sig, size_t bytes) {
  long long n = 0;
  for (const SignatureSegment& s : sig) {
    const size_t all = s.count * s.bytes;
    if (bytes >= all) {
      n += (long long)(s.count * s.elements);
      bytes -= all;
      continue;
    }
    const size_t whole = bytes / s.bytes;
    n += (long long)(whole * s.elements);
    bytes -= whole * s.bytes;
    if (bytes == 0) return n;
    const long long rest = s.basic != MPI_DATATYPE_NULL ? partial_basic(s.basic, bytes)
                                                        : partial_elements(s.body, bytes);
    return rest < 0 ? -1 : n + rest;
  }
  return n;
}

}  // namespace

Signature basic_signature(MPI_Datatype basic) {
  const PredefinedType& t = predefined_type(basic);
  return {SignatureSegment{basic, 1, {}, t.size, t.pair ? 2u : 1u}};
}

void append_repeat(Signature* out, size_t count, const Signature& body) {
  if (count == 0 || body.empty()) return;
  if (count == 1) {
    for (const SignatureSegment& s : body) push(out, s);
    return;
  }
  if (body.size() == 1) {  // a repeat of one segment multiplies its count
    SignatureSegment s = body[0];
    s.count *= count;
    push(out, std::move(s));
    return;
  }
  push(out,
       SignatureSegment{MPI_DATATYPE_NULL, count, body, total_bytes(body), total_elements(body)});
}

long long signature_elements(const Signature& sig, size_t element_bytes, size_t bytes) {
  if (element_bytes == 0) return 0;
  const size_t whole = bytes / element_bytes;
  const size_t rest = bytes - whole * element_bytes;
  const long long full = (long long)(whole * total_elements(sig));
  if (rest == 0) return full;
  const long long partial = partial_elements(sig, rest);
  return partial < 0 ? -1 : full + partial;
}

MPI_Datatype signature_basic_type(const Signature& sig, size_t* count) {
  MPI_Datatype basic = MPI_DATATYPE_NULL;
  size_t n = 0;
  for (const SignatureSegment& s : sig) {
    size_t inner = 1;
    const MPI_Datatype b =
        s.basic != MPI_DATATYPE_NULL ? s.basic : signature_basic_type(s.body, &inner);
    if (b == MPI_DATATYPE_NULL || (basic != MPI_DATATYPE_NULL && b != basic)) {
      *count = 0;
      return MPI_DATATYPE_NULL;
    }
    basic = b;
    n += s.count * inner;
  }
  *count = n;
  return basic;
}

}  // namespace weft
