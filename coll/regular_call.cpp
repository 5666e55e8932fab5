// CollArgs of regular calls, as runtime/c_api/coll*.cpp fill them in.
#include "coll/regular_call.hpp"

#include <cstdint>

namespace weft::coll {

std::vector<Block> packed_blocks(int n, size_t bytes) {
  std::vector<Block> blocks(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) blocks[size_t(i)] = {size_t(i) * bytes, bytes};
  return blocks;
}

CollArgs regular_args(const RegularCall& call) {
  CollArgs a;
  a.kind = call.kind;
  a.rank = call.rank;
  a.size = call.size;
  a.segment_bytes = call.segment_bytes;
  if (call.nodes > 1) {
    std::vector<int> ids;
    for (int r = 0; r < call.size; ++r) ids.push_back(int(int64_t(r) * call.nodes / call.size));
    a.nodes = std::make_shared<const NodeMap>(NodeMap::from_ids(ids));
  }
  switch (call.kind) {
    case CollKind::kBarrier:
      break;
    case CollKind::kBcast:
      a.root = call.root;
      a.bytes = call.bytes;
      a.elem_size = call.elem_size;
      break;
    case CollKind::kReduce:
      a.root = call.root;
      [[fallthrough]];
    case CollKind::kAllreduce:
    case CollKind::kScan:
    case CollKind::kExscan:
      a.bytes = call.bytes;
      a.elem_size = call.elem_size;
      a.commutative = call.commutative;
      break;
    case CollKind::kGather:
    case CollKind::kScatter:
      a.root = call.root;
      [[fallthrough]];
    case CollKind::kAllgather:
      a.blocks = packed_blocks(call.size, call.bytes);
      break;
    case CollKind::kReduceScatter:  // blocks of the whole input vector, one per rank
      a.blocks = packed_blocks(call.size, call.bytes);
      a.bytes = size_t(call.size) * call.bytes;
      a.elem_size = call.elem_size;
      a.commutative = call.commutative;
      break;
    case CollKind::kAlltoall:
      a.recv_blocks = packed_blocks(call.size, call.bytes);
      a.send_blocks = a.recv_blocks;
      break;
    case CollKind::kNeighborAllgather:
    case CollKind::kNeighborAlltoall:  // on a periodic ring: a 1-D Cartesian neighbourhood
      a.sources = {(call.rank + call.size - 1) % call.size, (call.rank + 1) % call.size};
      a.destinations = a.sources;
      a.mirrored_pairs = true;
      a.recv_blocks = packed_blocks(2, call.bytes);
      a.send_blocks = a.recv_blocks;
      a.bytes = call.bytes;
      break;
  }
  return a;
}

}  // namespace weft::coll
