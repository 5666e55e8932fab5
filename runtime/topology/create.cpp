// Building communicators with topologies, and the edge exchange of MPI_Dist_graph_create.
#include "runtime/topology/create.hpp"

#include "coll/coll.hpp"
#include "coll/regular_call.hpp"
#include "runtime/comm/create.hpp"
#include "runtime/world.hpp"

namespace weft::topo {
namespace {

// All-to-all over `comm`: send_blocks[i] of `send` to process i, recv_blocks[i] of `recv` from it.
Status alltoall(Comm& comm, std::vector<coll::Block> send_blocks, const void* send,
                std::vector<coll::Block> recv_blocks, void* recv) {
  coll::CallSpec spec;
  spec.args.kind = coll::CollKind::kAlltoall;
  spec.args.uniform = false;
  spec.args.send_blocks = std::move(send_blocks);
  spec.args.recv_blocks = std::move(recv_blocks);
  spec.binding.send = send;
  spec.binding.recv = recv;
  return coll::run_blocking(comm, spec);
}

// One edge as told to a process that it starts or ends at.
struct EdgeNote {
  int source, destination, weight, outgoing;  // outgoing: the process is the source
};

// Blocks of counts[i] notes for process i, back to back.
std::vector<coll::Block> note_blocks(const std::vector<int>& counts) {
  std::vector<coll::Block> blocks(counts.size());
  size_t at = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    blocks[i] = {at, size_t(counts[i]) * sizeof(EdgeNote)};
    at += blocks[i].bytes;
  }
  return blocks;
}

}  // namespace

Status create_on_first(Comm& parent, int nodes, std::shared_ptr<const Topology> topology,
                       MPI_Comm* out) {
  const groups::Members members(parent.world_ranks.begin(), parent.world_ranks.begin() + nodes);
  WEFT_TRY(comm_create(parent, members, out));
  if (*out != MPI_COMM_NULL) world().comms.find(*out)->topology = std::move(topology);
  return Status::success();
}

Status cart_sub(Comm& parent, const CartGrid& grid, std::span<const int> remain, MPI_Comm* out) {
  groups::Members members;
  for (int r : grid.subgrid_members(parent.rank, remain))
    members.push_back(parent.world_ranks[size_t(r)]);
  auto topology = std::make_shared<Topology>();
  topology->kind = MPI_CART;
  topology->cart = grid.sub(remain);
  WEFT_TRY(comm_create(parent, members, out));  // disjoint subgrids, one call
  world().comms.find(*out)->topology = std::move(topology);
  return Status::success();
}

Status dist_graph_create(Comm& parent, std::span<const Edge> edges, bool weighted, MPI_Comm* out) {
  const size_t p = size_t(parent.size);
  std::vector<std::vector<EdgeNote>> notes(p);
  for (const Edge& e : edges) {
    notes[size_t(e.source)].push_back({e.source, e.destination, e.weight, 1});
    notes[size_t(e.destination)].push_back({e.source, e.destination, e.weight, 0});
  }
  // First how many notes go to each process, with this process's weighted flag; then the notes.
  std::vector<int> flags_out(2 * p), flags_in(2 * p), counts_out(p), counts_in(p);
  std::vector<EdgeNote> flat_out;
  for (size_t i = 0; i < p; ++i) {
    counts_out[i] = flags_out[2 * i] = int(notes[i].size());
    flags_out[2 * i + 1] = weighted ? 1 : 0;
    flat_out.insert(flat_out.end(), notes[i].begin(), notes[i].end());
  }
  const std::vector<coll::Block> pairs = coll::packed_blocks(parent.size, 2 * sizeof(int));
  WEFT_TRY(alltoall(parent, pairs, flags_out.data(), pairs, flags_in.data()));
  bool any_weighted = false;
  size_t notes_in = 0;
  for (size_t i = 0; i < p; ++i) {
    counts_in[i] = flags_in[2 * i];
    notes_in += size_t(counts_in[i]);
    any_weighted = any_weighted || flags_in[2 * i + 1] != 0;
  }
  std::vector<EdgeNote> flat_in(notes_in);
  WEFT_TRY(alltoall(parent, note_blocks(counts_out), flat_out.data(), note_blocks(counts_in),
                    flat_in.data()));

  auto topology = std::make_shared<Topology>();
  topology->kind = MPI_DIST_GRAPH;
  DistGraph& g = topology->dist_graph;
  g.weighted = any_weighted;
  for (const EdgeNote& n : flat_in) {
    if (n.outgoing) {
      g.destinations.push_back(n.destination);
      if (any_weighted) g.destination_weights.push_back(n.weight);
    } else {
      g.sources.push_back(n.source);
      if (any_weighted) g.source_weights.push_back(n.weight);
    }
  }
  return create_on_first(parent, parent.size, std::move(topology), out);
}

}  // namespace weft::topo
