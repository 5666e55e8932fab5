// Single-copy allgather on one node: every rank posts the address of its block in the
// communicator's node region (coll/node_region.hpp), and reads every other rank's block from that
// rank's memory straight into its own output with process_vm_readv. One hand-over and one copy
// of each block per rank; a rank leaves once all have read its block.
// Cost: α_region + (p-1)·α + ((p-1)/p)·nβ for n the bytes of all blocks.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/region_parts.hpp"

namespace weft::coll {
namespace {

bool accepts(const CollArgs& a) { return region_takes(a, 0); }

void build(const CollArgs& a, Schedule& s) {
  const Block own = a.blocks[size_t(a.rank)];
  s.post_reference(send_buf(), own.bytes, a.size - 1);
  s.copy(send_buf(), recv_buf(own.offset), own.bytes);  // nothing to do in place
  for (int r = 0; r < a.size; ++r) {
    const Block& b = a.blocks[size_t(r)];
    if (r != a.rank) s.fetch_reference(r, recv_buf(b.offset), b.bytes);
  }
}

Cost cost(const CollArgs& a) {
  // A read from another process costs what a message of the node path costs (whose large
  // copies are process_vm_readv calls too). Every rank must predict the same, so the blocks
  // count as equal.
  const double p = a.size;
  Cost c;
  // The posts seen; the wait for the others' reads of this rank's block overlaps its own reads
  // (all read at once), so it is not charged.
  c.syncs = 1;
  c.rounds = p - 1;
  c.node_rounds = c.rounds;
  c.bytes = double(a.total_block_bytes()) * (p - 1) / p;
  c.node_bytes = c.bytes;
  return c;
}

}  // namespace

extern const Algorithm kAllgatherSingleCopy{"single_copy", CollKind::kAllgather, accepts, cost,
                                            build, false, true, true};

}  // namespace weft::coll
