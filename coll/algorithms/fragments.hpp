// Schedule fragments that several algorithms compose (docs/architecture.md §4, principle 1:
// ring allreduce = ring reduce-scatter + ring allgather). Each is written once, in the file of
// the algorithm it is named after, and appended to a schedule after a given step.
#pragma once
#include <optional>
#include <span>
#include <vector>

#include "coll/algorithm.hpp"

namespace weft::coll {

// Appends `algorithm`'s schedule for `args` (Schedule::append): its buffers at `send_as` and
// `recv_as`, after `after`; `peers` renames its ranks when it runs among a subset of the ranks.
// Returns the step that ends it.
StepId append_algorithm(Schedule& s, const Algorithm& algorithm, const CollArgs& args,
                        BufRef send_as, BufRef recv_as, StepId after,
                        std::span<const int> peers = {});

// The call `a` as `size` ranks running one part of it see it: collective `kind`, the given rank
// and root, and a's bytes, element size, op and segment size; no blocks, not in place, no node
// map.
CollArgs part_args(const CollArgs& a, CollKind kind, int size, int rank, int root = 0);

// `parts` blocks of a `bytes`-long vector, cut evenly at element boundaries, back to back.
std::vector<Block> even_blocks(size_t bytes, size_t elem_size, int parts);
// The same blocks shifted by `offset`.
std::vector<Block> offset_blocks(std::vector<Block> blocks, size_t offset);

// A ring of `size` members; member i is communicator rank (i + shift) % size.
struct Ring {
  int self = 0, size = 1, shift = 0;
  int rank_of(int member) const { return (member % size + size + shift) % size; }
};

// Pipelining of a fragment: blocks are moved in pieces of at most `piece` bytes, piece j on lane
// j % lanes, so that up to `lanes` pieces are in flight and scratch stays bounded.
struct Pipeline {
  size_t piece = SIZE_MAX;
  int lanes = 1;
};
Pipeline pipeline_for(const CollArgs& args, size_t largest_block);

// Ring allgather (allgather_ring.cpp): member i starts with block i in `buf` and ends with all
// blocks there; in step t it sends block i - t and receives block i - t - 1 (mod size).
// `own`: where block i can also be read (the input); step 0 sends it from there, without waiting
// for `after` (see append_doubling_allgather). Returns a step that completes when everything is
// done.
StepId append_ring_allgather(Schedule& s, const Ring& ring, BufRef buf,
                             std::span<const Block> blocks, const Pipeline& pipe, StepId after,
                             std::optional<BufRef> own = std::nullopt);

// Ring reduce-scatter (reduce_scatter_ring.cpp): every member's `input` holds all blocks; member
// i ends with block i reduced over all members at `result`. Commutative ops only. `in_place`:
// `result` may overlap `input`, so it is written only once all of `input` has been read.
StepId append_ring_reduce_scatter(Schedule& s, const Ring& ring, BufRef input,
                                  std::span<const Block> blocks, BufRef result,
                                  const Pipeline& pipe, bool in_place, StepId after);

// Binomial scatter (scatter_binomial.cpp) over relative ranks (Ring::shift = root, blocks indexed
// by relative rank and packed back to back): the root reads block k at root_buf +
// blocks[k].offset; relative rank r > 0 receives the blocks of its subtree, [r, r + subtree),
// at subtree_buf + blocks[k].offset - blocks[r].offset and forwards its children's from there.
StepId append_binomial_scatter(Schedule& s, const Ring& ring, std::span<const Block> blocks,
                               BufRef root_buf, BufRef subtree_buf, StepId after);

// Recursive halving reduce-scatter for commutative ops (reduce_scatter_halving.cpp), after
// Thakur, Rabenseifner & Gropp, "Optimization of collective communication operations in MPICH"
// (2005): the size - 2^k extra ranks first fold their vector into a partner and drop out; the
// remaining 2^k ranks halve the vector between pairs log2(2^k) times. `acc` is a writable
// full-length vector; `input`, this rank's vector, is only read (nullopt: acc holds it already).
// With a separate input nothing is copied into acc: the first data received lands there and the
// input is folded in from where it lies (operands swapped, as commutative ops allow). An active
// rank ends holding, in `acc`, the reduced blocks of the ranks it stands for
// (HalvingGroup::blocks_of).
struct HalvingGroup {
  int size = 1, pof2 = 1, rem = 0;
  explicit HalvingGroup(int size);
  // The rank in the power-of-two group, or -1 for a rank folded away.
  int new_rank(int rank) const;
  int old_rank(int new_rank) const;
  // The original ranks whose blocks new rank n ends with: [first, first + count).
  int first_block(int new_rank) const { return new_rank < rem ? 2 * new_rank : new_rank + rem; }
  int block_count(int new_rank) const { return new_rank < rem ? 2 : 1; }
};
// Where the original blocks of new ranks [lo, hi) lie in the vector (contiguous).
Block halving_span(const HalvingGroup& g, std::span<const Block> blocks, int lo, int hi);
StepId append_halving_reduce_scatter(Schedule& s, const CollArgs& args,
                                     std::span<const Block> blocks, std::optional<BufRef> input,
                                     BufRef acc, StepId after);
// The inverse (allgather_recursive_doubling.cpp): recursive doubling allgather among the
// power-of-two group, new rank n starting with the blocks it stands for, then each folded rank
// gets the whole vector from its partner. `own`, where this rank's input block can be read: a
// rank that stands for no folded rank sends it from there in the first exchange, without waiting
// for `after`, so the partner reads memory this rank only reads (written memory that the other
// core has just read costs this core a transfer of every line when it writes it again).
StepId append_doubling_allgather(Schedule& s, const CollArgs& args, std::span<const Block> blocks,
                                 BufRef acc, StepId after, std::optional<BufRef> own = std::nullopt);

// Single-copy reduce-scatter through the node region (reduce_scatter_single_copy.cpp): this
// rank posts its `input` (every block, back to back from offset 0) by reference as its first
// post of the call, and folds its own block of every rank's input into `result`, reading the
// others' parts with process_vm_readv piece by piece, so that each piece is reduced while it is
// still in cache. Commutative ops only. Returns the step that ends the folding; *posted gets the
// post, which completes once every other rank has read its block from it.
StepId append_single_copy_reduce_scatter(Schedule& s, const CollArgs& a, BufRef input,
                                         std::span<const Block> blocks, BufRef result,
                                         StepId* posted);
// Its cost, for `largest` the bytes of the largest block: the post, the pieces read and the
// bytes read, copied and reduced.
Cost single_copy_reduce_scatter_cost(const CollArgs& a, size_t largest);

}  // namespace weft::coll
