// The plan of one collective buffering (two-phase) access: whether to use it, which ranks
// aggregate, the file domain each one owns, and the rounds of cb_buffer_size bytes it takes.
#pragma once
#include <vector>

#include "io/file.hpp"

namespace weft::io {

struct CbPlan {
  bool use = false;              // false: every rank does its own part independently
  std::vector<int> aggregators;  // ranks of the file's communicator, domain i is theirs
  // Domain i is [bounds[i], bounds[i + 1]): the file range of the whole call, cut at multiples
  // of the alignment (file_domains.hpp).
  std::vector<MPI_Offset> bounds;
  MPI_Offset buffer = 0;  // bytes an aggregator moves per round (cb_buffer_size)
  long long rounds = 0;

  // The bytes aggregator i moves in round r (empty when its domain ends sooner).
  Chunk window(size_t i, long long r) const;
};

// `count` aggregators (at most one per rank): the first rank of each node in node order, then
// the second of each node, and so on; returned in rank order.
std::vector<int> choose_aggregators(const std::vector<int>& node_of, int count);

// Collective: every rank passes its chunks (sorted by offset) of the access; rank 0's hints count.
// romio_cb_write / romio_cb_read decide, and under "automatic" collective buffering is used
// when the ranks' accesses interleave (some rank has several pieces, or two ranks' ranges
// overlap) and their pieces are small (on average under kSmallPiece, sieve.hpp): larger pieces
// each rank moves faster with its own calls, as they need no exchange (4 ranks on one node's
// page cache, 64 and 128 KiB pieces of a 3-D subarray: 2-3x the bandwidth of two-phase I/O
// with one aggregator; 32 KiB pieces, sieved: no faster; README, MPI-IO). Domains are aligned
// to striping_unit when given, else to kDefaultAlignment: none, as 1 MiB and 4 KiB alignment
// measured no different here (64 MiB subarray, 4 ranks, 3 and 4 aggregators, ext4 page cache:
// within the noise of a shared machine; README, MPI-IO), and an even split balances the
// aggregators best.
inline constexpr MPI_Offset kDefaultAlignment = 0;
Status plan_collective(const File& f, bool write, const std::vector<Chunk>& chunks, CbPlan* out);

}  // namespace weft::io
