// Single-copy broadcast on one node: the root posts the address of its buffer in the
// communicator's node region (coll/node_region.hpp), and every other rank reads the data from
// the root's memory straight into its own buffer with process_vm_readv, all at once. One
// hand-over and one copy per rank, however long the message; the root waits until all have read.
// Cost: α_region + α + nβ.
#include "coll/algorithms/all.hpp"
#include "coll/algorithms/region_parts.hpp"

namespace weft::coll {
namespace {

bool accepts(const CollArgs& a) { return region_takes(a, 0); }

void build(const CollArgs& a, Schedule& s) {
  if (a.rank == a.root) {
    s.post_reference(recv_buf(), a.bytes, a.size - 1);
  } else {
    s.fetch_reference(a.root, recv_buf(), a.bytes);
  }
}

Cost cost(const CollArgs& a) {
  // A byte read from the root costs what a large message of the node path costs (its copy is a
  // process_vm_readv too, but made by one core: the node path's large messages are copied by
  // sender and receiver together where they have a core each, pt2pt/shm/split_copy.hpp); the
  // root's wait for the last reader, what a message back costs.
  Cost c;
  c.syncs = 1;
  c.rounds = 1;
  c.node_rounds = 1;
  c.bytes = double(a.bytes);
  c.node_bytes = c.bytes;
  return c;
}

}  // namespace

extern const Algorithm kBcastSingleCopy{"single_copy", CollKind::kBcast, accepts, cost, build,
                                        false, true, true};

}  // namespace weft::coll
