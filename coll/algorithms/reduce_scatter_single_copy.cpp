// Single-copy reduce-scatter on one node: every rank posts the address of its input in the
// communicator's node region (coll/node_region.hpp), and each rank reads its own block from every
// other rank's memory with process_vm_readv, one cache-sized piece at a time, folding each piece
// into its result as it arrives. Each byte crosses between processes once and is reduced from
// cache; there are no messages. Commutative ops only.
// Cost: 2α_region + reads·α + (p-1)·bβ + (p-1)·bγ for b the largest block's bytes.
#include <algorithm>

#include "coll/algorithms/all.hpp"
#include "coll/algorithms/fragments.hpp"
#include "coll/algorithms/region_parts.hpp"

namespace weft::coll {
namespace {

// The most bytes one read brings in: every rank's piece of the others' inputs stays in this
// rank's cache until it is reduced (a quarter of this machine's 1 MiB second-level cache in all).
constexpr size_t kCachedBytes = 256 * 1024;

// Bytes of one read: the cached bytes shared by the p - 1 pieces in flight, whole elements.
// Every rank computes the same, so it knows how often the others read its post.
size_t piece_bytes(const CollArgs& a) {
  const size_t elem = std::max<size_t>(a.elem_size, 1);
  const size_t piece = kCachedBytes / size_t(std::max(a.size - 1, 1));
  return std::max(elem, piece / elem * elem);
}

size_t pieces(size_t bytes, size_t piece) { return (bytes + piece - 1) / piece; }

bool accepts(const CollArgs& a) {
  return a.commutative && !a.blocks.empty() && region_takes(a, 0);
}

void build(const CollArgs& a, Schedule& s) {
  const Block mine = a.blocks[size_t(a.rank)];
  // In place the input is kRecv too, and the others read its first block: fold aside, and move
  // the result to the front once they all have read.
  const BufRef result = a.in_place ? s.scratch(mine.bytes) : recv_buf();
  StepId posted = kNoStep;
  const StepId folded =
      append_single_copy_reduce_scatter(s, a, send_buf(), a.blocks, result, &posted);
  if (a.in_place) s.copy(result, recv_buf(), mine.bytes, {folded, posted});
}

Cost cost(const CollArgs& a) {
  size_t largest = 0;
  for (const Block& b : a.blocks) largest = std::max(largest, b.bytes);
  return single_copy_reduce_scatter_cost(a, largest);
}

}  // namespace

StepId append_single_copy_reduce_scatter(Schedule& s, const CollArgs& a, BufRef input,
                                         std::span<const Block> blocks, BufRef result,
                                         StepId* posted) {
  const size_t piece = piece_bytes(a);
  size_t reads = 0;  // of this rank's input by the others
  for (int r = 0; r < a.size; ++r)
    if (r != a.rank) reads += pieces(blocks[size_t(r)].bytes, piece);
  *posted = s.post_reference(input, blocks_end(blocks), int(reads));
  const Block mine = blocks[size_t(a.rank)];
  const size_t room = std::min(piece, mine.bytes);
  // A piece of room per other rank, so that reading from a rank that has posted never waits for
  // one that has not.
  const BufRef arrivals = s.scratch(size_t(a.size - 1) * room);
  std::vector<StepId> freed(size_t(a.size - 1), kNoStep);  // the last reduce of each room
  std::vector<StepId> ends;
  for (size_t at = 0; at < mine.bytes; at += piece) {
    const size_t n = std::min(piece, mine.bytes - at);
    const BufRef out = result.at(at);
    StepId folded = s.copy(input.at(mine.offset + at), out, n);  // nothing to do in place
    for (int k = 1; k < a.size; ++k) {
      const BufRef arrival = arrivals.at(size_t(k - 1) * room);
      const int peer = (a.rank + k) % a.size;
      const StepId read =
          s.fetch_reference_part(peer, mine.offset + at, arrival, n, {freed[size_t(k - 1)]});
      folded = s.reduce(arrival, out, n, {folded, read});
      freed[size_t(k - 1)] = folded;
    }
    ends.push_back(folded);
  }
  return s.join(ends);
}

Cost single_copy_reduce_scatter_cost(const CollArgs& a, size_t largest) {
  // A read from another process costs what a message of the node path costs (whose large
  // copies are process_vm_readv calls too): α for the system call, β per byte. Local copies,
  // as everywhere in the model, are free.
  const double p = a.size, b = double(largest);
  Cost c;
  c.syncs = 2;  // the post seen by the others, and their last read seen
  c.rounds = (p - 1) * double(pieces(largest, piece_bytes(a)));
  c.node_rounds = c.rounds;
  c.bytes = (p - 1) * b;
  c.node_bytes = c.bytes;
  c.reduced = (p - 1) * b;
  return c;
}

extern const Algorithm kReduceScatterSingleCopy{"single_copy", CollKind::kReduceScatter, accepts,
                                                cost, build, false, true, true};

}  // namespace weft::coll
