// The CollArgs of a regular call (coll/regular_call.hpp) as the selection tests describe one.
#pragma once
#include "coll/regular_call.hpp"

namespace weft::test {

inline coll::CollArgs regular_call_args(coll::CollKind kind, int size, size_t bytes,
                                        bool commutative = true, int root = 0, int nodes = 1) {
  coll::RegularCall c;
  c.kind = kind;
  c.size = size;
  c.bytes = bytes;
  c.commutative = commutative;
  c.root = root;
  c.nodes = nodes;
  return coll::regular_args(c);
}

}  // namespace weft::test
