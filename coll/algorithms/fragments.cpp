// Composition of whole algorithms, and the block layouts and pipelining the fragments share.
#include "coll/algorithms/fragments.hpp"

#include <algorithm>

#include "coll/patterns.hpp"

namespace weft::coll {

StepId append_algorithm(Schedule& s, const Algorithm& algorithm, const CollArgs& args,
                        BufRef send_as, BufRef recv_as, StepId after, std::span<const int> peers) {
  Schedule part;
  algorithm.build(args, part);
  return s.append(part, send_as, recv_as, after, peers);
}

CollArgs part_args(const CollArgs& a, CollKind kind, int size, int rank, int root) {
  CollArgs l;
  l.kind = kind;
  l.rank = rank;
  l.size = size;
  l.root = root;
  l.bytes = a.bytes;
  l.elem_size = a.elem_size;
  l.commutative = a.commutative;
  l.segment_bytes = a.segment_bytes;
  return l;
}

std::vector<Block> even_blocks(size_t bytes, size_t elem_size, int parts) {
  std::vector<Block> blocks(static_cast<size_t>(parts));
  const size_t elems = bytes / elem_size;
  for (int i = 0; i < parts; ++i) {
    const Range r = block_of(elems, parts, i);
    blocks[size_t(i)] = {r.first * elem_size, r.count * elem_size};
  }
  return blocks;
}

std::vector<Block> offset_blocks(std::vector<Block> blocks, size_t offset) {
  for (Block& b : blocks) b.offset += offset;
  return blocks;
}

Pipeline pipeline_for(const CollArgs& args, size_t largest_block) {
  constexpr int kMaxLanes = 4;
  const size_t piece = std::max(args.segment_bytes / args.elem_size, size_t{1}) * args.elem_size;
  if (largest_block <= piece) return {};
  const size_t pieces = pieces_in(largest_block, piece);
  return {piece, int(std::min<size_t>(pieces, kMaxLanes))};
}

}  // namespace weft::coll
