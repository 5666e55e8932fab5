// What an algorithm is: a pure schedule builder for one collective, the constraints under which
// it can take a call, and its cost in α-β-γ terms. CollArgs describes one call in the canonical
// form every builder of that collective works on (see "Buffers" below).
#pragma once
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "coll/node_map.hpp"
#include "coll/schedule.hpp"

namespace weft::coll {

enum class CollKind {
  kBarrier,
  kBcast,
  kReduce,
  kAllreduce,
  kGather,
  kScatter,
  kAllgather,
  kReduceScatter,
  kAlltoall,
  kScan,
  kExscan,
  kNeighborAllgather,  // MPI_(I)Neighbor_allgather(v)(_init)
  kNeighborAlltoall,   // MPI_(I)Neighbor_alltoall(v,w)(_init)
};
inline constexpr int kNumCollKinds = int(CollKind::kNeighborAlltoall) + 1;

// "allreduce" for kAllreduce: the name used in WEFT_<COLL>_ALGORITHM and weft_info --coll.
const char* coll_name(CollKind kind);

struct Block {
  size_t offset = 0;  // bytes from the start of the buffer
  size_t bytes = 0;
  bool operator==(const Block&) const = default;
};

// The bytes from a buffer's start to the end of its last block (0 for none).
inline size_t blocks_end(std::span<const Block> blocks) {
  return blocks.empty() ? 0 : blocks.back().offset + blocks.back().bytes;
}

// One call, as every rank's builder sees it.
//
// Buffers: Buf::kSend is the input, Buf::kRecv the output; kSend may alias kRecv (MPI_IN_PLACE),
// so a builder finishes reading kSend before it writes the kRecv bytes that could overlap it.
//   bcast:          kRecv holds `bytes` (the data at the root).
//   reduce, allreduce, scan, exscan: kSend holds `bytes` of input; kRecv gets `bytes` of
//                   result (reduce: at the root only; exscan: rank 0's kRecv is left alone).
//   gather:         kSend holds this rank's block; kRecv at the root gets blocks[i] for every i.
//   scatter:        kSend at the root holds blocks[i] for every i; kRecv gets this rank's block.
//   allgather:      kSend holds this rank's block; kRecv gets blocks[i] for every i.
//   reduce_scatter: kSend holds all blocks back to back (blocks[i].offset); kRecv gets the
//                   reduced block of this rank at offset 0.
//   alltoall:       kSend holds send_blocks[i] for peer i, kRecv gets recv_blocks[i] from peer i.
//   neighbor_allgather: kSend holds `bytes` for every destination; kRecv gets recv_blocks[i]
//                   from sources[i].
//   neighbor_alltoall: kSend holds send_blocks[j] for destinations[j]; kRecv gets recv_blocks[i]
//                   from sources[i].
//
// Intercommunicators (remote_size > 0): rank and size are the local group's; root is a remote
// rank (this group receives or sends towards it), kRootHere (MPI_ROOT: this rank is the root) or
// kRootNone (MPI_PROC_NULL: another rank of this group is). Schedules address local rank i as
// peer i and remote rank j as peer size + j (inter_peer). Differences from the above:
//   gather, scatter: blocks (the root's only) are the remote ranks'; a non-root's own block is
//                   `bytes` long.
//   allgather:      blocks are the remote ranks'; this rank's kSend holds `bytes`.
//   alltoall:       send_blocks and recv_blocks are the remote ranks'.
//   reduce, allreduce, reduce_scatter: the result is the other group's reduction; a reduce's
//                   sending group needs no kRecv.
struct CollArgs {
  static constexpr int kRootHere = -3;  // MPI_ROOT
  static constexpr int kRootNone = -2;  // MPI_PROC_NULL
  CollKind kind = CollKind::kBarrier;
  int rank = 0, size = 1, root = 0;
  int remote_size = 0;   // an intercommunicator's remote group (0: an intracommunicator)
  size_t bytes = 0;      // bcast, reduce, allreduce, scan, exscan
  size_t elem_size = 1;  // element boundaries: blocks and segments never split an element
  bool commutative = true;
  bool in_place = false;  // kSend aliases kRecv on this rank
  // Every rank knows every block's size and they are all the same (not a v-variant); tree and
  // Bruck algorithms need it. Where the blocks lie is each rank's own business (the root's
  // layout may have gaps, e.g. with a resized datatype).
  bool uniform = true;
  std::vector<Block> blocks;                    // gather, scatter, allgather, reduce_scatter
  std::vector<Block> send_blocks, recv_blocks;  // alltoall, neighbor_* (this rank's view only)
  size_t segment_bytes = 128 * 1024;            // pipelining unit of segmented algorithms
  // Neighbourhood collectives: this rank's neighbours in the standard's order (MPI 4.0 §8.6);
  // a negative entry (MPI_PROC_NULL) keeps its block but moves nothing.
  std::vector<int> sources, destinations;
  // Cartesian neighbourhoods: both lists hold a (negative, positive) pair per dimension, and the
  // block sent in one direction lands in the receiver's block of the opposite direction (block
  // s of the sender is block s^1 of the receiver). Graphs pair the k-th send from A to B with
  // the k-th receive from A at B.
  bool mirrored_pairs = false;
  // Which node each rank runs on, where the communicator spans several nodes and they are known
  // (runtime/comm/nodes.hpp); null otherwise. Shared by every call on the communicator, so
  // comparing calls compares the pointer.
  std::shared_ptr<const NodeMap> nodes;
  // The most bytes one rank can post in the communicator's node region (coll/node_region.hpp);
  // 0 where it has none (ranks on several nodes, a region not claimed or turned off).
  size_t region_bytes = 0;

  bool operator==(const CollArgs&) const = default;

  // Neighbourhood collectives: the source whose receive is posted k-th, so that every pair of
  // ranks posts its messages to each other in matching order (coll/schedule.hpp). With
  // mirrored pairs the receive from the positive neighbour of a dimension is posted first: it
  // meets the message that neighbour sends first, which is the one it sends in its negative
  // direction, to us.
  size_t source_posted(size_t k) const { return mirrored_pairs ? k ^ 1 : k; }

  // Total bytes of all blocks (gather, scatter, allgather, reduce_scatter).
  size_t total_block_bytes() const {
    size_t total = 0;
    for (const Block& b : blocks) total += b.bytes;
    return total;
  }
};

// Whether the call's ranks are known to run on more than one node.
inline bool spans_nodes(const CollArgs& a) { return a.nodes != nullptr && a.nodes->nodes() > 1; }

// The schedule peer of remote rank `r` on an intercommunicator.
inline int inter_peer(const CollArgs& a, int r) { return a.size + r; }

// Whether blocks lie back to back in rank order (as tree algorithms need them).
inline bool back_to_back(const std::vector<Block>& blocks) {
  for (size_t k = 1; k < blocks.size(); ++k)
    if (blocks[k].offset != blocks[k - 1].offset + blocks[k - 1].bytes) return false;
  return true;
}

// Predicted cost along the critical path of one rank: latency rounds, bytes moved (the larger
// of sent and received per round, summed) and bytes reduced. Of the rounds and bytes, node-aware
// algorithms say which part stays between ranks of one node; on a call that spans nodes the rest
// is charged at the other-node α and β (coll/select.hpp), so all of a flat algorithm's.
struct Cost {
  double rounds = 0;
  double bytes = 0;
  double reduced = 0;
  double node_rounds = 0;  // of `rounds`, within one node
  double node_bytes = 0;   // of `bytes`, within one node
  double syncs = 0;        // hand-overs through the node region (a post seen by its fetchers)
  double region_bytes = 0;  // bytes copied into and out of the node region's slots
};

struct Algorithm {
  const char* name;
  CollKind kind;
  // Whether this algorithm can take the call (nullptr: any call).
  bool (*accepts)(const CollArgs&);
  Cost (*cost)(const CollArgs&);
  void (*build)(const CollArgs&, Schedule&);
  // Built from levels of the node map (coll/algorithms/node_levels.hpp): takes only calls that
  // span nodes.
  bool node_aware = false;
  // Moves data through the communicator's node region (coll/node_region.hpp): takes only calls
  // with region_bytes set, at most that many bytes per rank (unless by reference).
  bool node_region = false;
  // Posts only addresses in the region, and reads the other ranks' buffers where they lie
  // (process_vm_readv), so the region's room does not limit the bytes. The short paths
  // (coll/region_short.hpp) leave these to the general path.
  bool by_reference = false;
};

}  // namespace weft::coll
