// The CollArgs of a regular call (no v-variant, no MPI_IN_PLACE) from its sizes alone, the way
// the C API builds them: for weft_info --coll, tests and tools that ask what a call would choose.
#pragma once
#include <cstddef>
#include <vector>

#include "coll/algorithm.hpp"
#include "coll/tuning.hpp"

namespace weft::coll {

struct RegularCall {
  CollKind kind = CollKind::kBarrier;
  int size = 1;  // ranks in the communicator
  int rank = 0;  // whose view; selection does not depend on it
  int root = 0;
  // The vector (bcast, reduce, allreduce, scan, exscan) or one rank's block (gather, scatter,
  // allgather, reduce_scatter, alltoall), or one neighbour's block (neighbour collectives, on a
  // periodic ring), in bytes.
  size_t bytes = 0;
  size_t elem_size = 1;     // the datatype's size (bcast and the reductions)
  bool commutative = true;  // reductions
  size_t segment_bytes = CostModel{}.segment_bytes;  // the model's, as coll::choose sets it
  // The ranks on this many nodes, in runs of consecutive ranks as even as can be (1 to size).
  int nodes = 1;
};

// Equal blocks of `bytes` each, back to back in rank order.
std::vector<Block> packed_blocks(int n, size_t bytes);
CollArgs regular_args(const RegularCall& call);

}  // namespace weft::coll
