// Collective calls set up for the simulator the way the C API sets them up: per-rank CollArgs,
// input data, output buffers (with guard bytes around them) and buffer bindings, MPI_IN_PLACE
// and v-variant layouts included. Outputs are whole receive buffers, so a stray write anywhere
// shows up as a difference.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "coll/algorithm.hpp"
#include "coll/executor.hpp"
#include "coll_sim.hpp"
#include "runtime/op/op.hpp"

namespace weft::test {

enum class Values { kBytes, kSum, kAffine, kFloat };  // input data and reduction op

struct Problem {
  coll::CollKind kind = coll::CollKind::kBarrier;
  int size = 1, root = 0;
  size_t count = 1;      // elements per rank (per block for the block collectives)
  bool in_place = false;
  bool vector = false;   // uneven counts and gapped displacements (v-variants)
  Values values = Values::kBytes;
  size_t segment_bytes = 64 * 1024;
  uint64_t seed = 1;
  std::vector<int> nodes;  // the node of each rank, for node-aware algorithms (empty: not known)
  size_t region_bytes = 1 << 20;  // the node region's room per rank (coll/node_region.hpp)
  std::string describe() const;
  std::string nodes_text() const;  // " nodes=0,0,1" ("" without nodes)
};

struct RankState {
  coll::CollArgs args;
  std::vector<unsigned char> send, recv, stage;
  coll::Binding binding;
};

// Placements of p ranks on nodes for the node-aware algorithms (none for one rank): halves of
// consecutive ranks; consecutive runs of 1, 2, 3, ... ranks; round robin over three nodes; a
// scattered, uneven placement over about p/3 nodes; and one rank alone amid the others.
std::vector<std::vector<int>> node_placements(int p);

// Every rank's call, inputs filled in.
std::vector<RankState> set_up(const Problem& problem);
// The reduction the problem uses (elem_size 0 for none).
Reduction reduction_for(Values values);
// Runs `algorithm` on a fresh set-up; fills `outputs` with every rank's receive buffer.
SimOutcome run_algorithm(const Problem& problem, const coll::Algorithm& algorithm,
                         const SimRun& run, std::vector<std::vector<unsigned char>>* outputs);

}  // namespace weft::test
