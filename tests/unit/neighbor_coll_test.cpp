// Neighbourhood collective schedules, simulated on Cartesian grids (periodic and not, with
// dimensions of 1 and 2 ranks where a rank is its own or both neighbours), graphs with repeated
// edges and self-loops, and distributed graphs with asymmetric and repeated edges. Every block
// must land where the standard puts it (MPI 4.0 §8.6): on a Cartesian grid block s of the
// sender becomes block s^1 of the receiver; on a graph the k-th edge from A to B carries A's
// k-th block for B into B's k-th block from A. Blocks of MPI_PROC_NULL neighbours, gaps and
// guard bytes stay untouched.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "coll/registry.hpp"
#include "coll_sim.hpp"
#include "mpi.h"
#include "runtime/topology/virtual.hpp"

using namespace weft;
using coll::Block;
using coll::CollKind;
using Ints = std::vector<int>;

namespace {

constexpr size_t kGuard = 8;
constexpr unsigned char kUntouched = 0xA5;

struct Case {
  std::string name;
  std::vector<topo::Neighbors> ranks;  // each rank's neighbours
};

Case cartesian(Ints dims, Ints periods) {
  Topology t;
  t.kind = MPI_CART;
  t.cart = topo::CartGrid{dims, periods};
  Case c;
  c.name = "cartesian dims";
  for (size_t i = 0; i < dims.size(); ++i)
    c.name += std::string(i ? "x" : " ") + std::to_string(dims[i]) + (periods[i] ? "p" : "");
  for (int r = 0; r < t.cart.size(); ++r) c.ranks.push_back(topo::neighbors_of(t, r));
  return c;
}

Case graph(std::string name, const Ints& index, const Ints& edges) {
  Topology t;
  t.kind = MPI_GRAPH;
  REQUIRE(topo::make_graph(int(index.size()), index.data(), edges.data(), &t.graph).ok());
  Case c{"graph " + std::move(name), {}};
  for (int r = 0; r < t.graph.nnodes(); ++r) c.ranks.push_back(topo::neighbors_of(t, r));
  return c;
}

// A distributed graph of `edges` (source, destination) pairs, listed the way
// MPI_Dist_graph_create lists them when one process gives them all.
Case dist_graph(std::string name, int size, const std::vector<std::pair<int, int>>& edges) {
  Case c{"distributed graph " + std::move(name), std::vector<topo::Neighbors>(size_t(size))};
  for (const auto& [from, to] : edges) {
    c.ranks[size_t(from)].destinations.push_back(to);
    c.ranks[size_t(to)].sources.push_back(from);
  }
  return c;
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (int periodic = 0; periodic <= 1; ++periodic) {
    const int p = periodic;
    all.push_back(cartesian({1}, {p}));
    all.push_back(cartesian({2}, {p}));
    all.push_back(cartesian({3}, {p}));
    all.push_back(cartesian({5}, {p}));
    all.push_back(cartesian({1, 1}, {p, p}));
    all.push_back(cartesian({2, 2}, {p, p}));
    all.push_back(cartesian({3, 3}, {p, p}));
    all.push_back(cartesian({1, 1, 4}, {p, p, p}));
    all.push_back(cartesian({2, 3, 2}, {p, 1 - p, p}));
  }
  all.push_back(cartesian({4, 1, 2}, {0, 1, 1}));
  all.push_back(cartesian({}, {}));
  // Symmetric edge counts with repeats: 0-1 twice, 0-2, 1-3, 2-3, loops 0-0 and 2-2 twice.
  all.push_back(graph("with repeated edges and loops", {4, 7, 11, 13},
                      {1, 2, 1, 0, 0, 3, 0, 2, 0, 3, 2, 1, 2}));
  all.push_back(graph("pair", {2, 4}, {1, 1, 0, 0}));
  all.push_back(graph("one lonely node", {0}, {}));
  all.push_back(dist_graph("chain", 4, {{0, 1}, {1, 2}, {2, 3}}));
  all.push_back(dist_graph("repeats and self-edges", 4,
                           {{0, 1}, {1, 0}, {0, 1}, {2, 2}, {3, 0}, {2, 2}, {0, 1}, {1, 1}}));
  std::mt19937 rng(7);
  for (int size : {3, 6, 9}) {
    std::vector<std::pair<int, int>> edges;
    for (int e = 0; e < 3 * size; ++e)
      edges.emplace_back(int(rng() % unsigned(size)), int(rng() % unsigned(size)));
    all.push_back(dist_graph("random " + std::to_string(size), size, edges));
  }
  return all;
}

// Where each received block comes from by the standard's rule: (sender, sender's block).
std::vector<std::pair<int, int>> origins(const Case& c, int r, bool cartesian) {
  const Ints& sources = c.ranks[size_t(r)].sources;
  std::vector<std::pair<int, int>> from(sources.size(), {-1, -1});
  for (size_t i = 0; i < sources.size(); ++i) {
    const int s = sources[i];
    if (s < 0) continue;
    const Ints& their = c.ranks[size_t(s)].destinations;
    if (cartesian) {
      from[i] = {s, int(i ^ 1)};
      REQUIRE(their[i ^ 1] == r);
      continue;
    }
    const int k = int(std::count(sources.begin(), sources.begin() + long(i), s));
    int seen = 0;
    for (size_t j = 0; j < their.size() && from[i].first < 0; ++j)
      if (their[j] == r && seen++ == k) from[i] = {s, int(j)};
    REQUIRE(from[i].first == s);
  }
  return from;
}

struct Rank {
  coll::CollArgs args;
  std::vector<unsigned char> send, recv;
};

// Bytes that rank `r` sends in its block `j` (allgather: one block).
size_t bytes_of(int r, int j, bool vector, size_t count) {
  return vector ? ((size_t(r) * 7 + size_t(j) * 3) % (count + 3)) * 4 : count * 4;
}

// Blocks of the given sizes, in reverse order with 4 bytes of gap between them (v-variants), or
// back to back.
std::vector<Block> layout(const std::vector<size_t>& bytes, bool vector) {
  std::vector<Block> blocks(bytes.size());
  size_t at = 0;
  for (size_t k = 0; k < bytes.size(); ++k) {
    const size_t i = vector ? bytes.size() - 1 - k : k;
    blocks[i] = {at, bytes[i]};
    at += bytes[i] + (vector ? 4 : 0);
  }
  return blocks;
}

size_t extent(const std::vector<Block>& blocks) {
  size_t end = 0;
  for (const Block& b : blocks) end = std::max(end, b.offset + b.bytes);
  return end;
}

void run_case(const Case& c, CollKind kind, const coll::Algorithm& algorithm, size_t count,
              bool vector) {
  const int p = int(c.ranks.size());
  const bool alltoall = kind == CollKind::kNeighborAlltoall;
  std::vector<Rank> ranks(static_cast<size_t>(p));
  std::vector<std::vector<std::pair<int, int>>> from(static_cast<size_t>(p));
  for (int r = 0; r < p; ++r) {
    const topo::Neighbors& n = c.ranks[size_t(r)];
    coll::CollArgs& a = ranks[size_t(r)].args;
    a.kind = kind;
    a.rank = r;
    a.size = p;
    a.elem_size = 4;
    a.uniform = !vector;
    a.sources = n.sources;
    a.destinations = n.destinations;
    a.mirrored_pairs = n.cartesian;
    from[size_t(r)] = origins(c, r, n.cartesian);
    std::vector<size_t> in(n.sources.size()), out(n.destinations.size());
    for (size_t i = 0; i < in.size(); ++i) {
      const auto [s, j] = from[size_t(r)][i];
      in[i] = s < 0 ? bytes_of(r, int(i) + 5, vector, count)
                    : bytes_of(s, alltoall ? j : 0, vector, count);
    }
    for (size_t j = 0; j < out.size(); ++j)
      out[j] = bytes_of(r, alltoall ? int(j) : 0, vector, count);
    a.recv_blocks = layout(in, vector);
    if (alltoall) {
      a.send_blocks = layout(out, vector);
    } else {
      a.bytes = out.empty() ? bytes_of(r, 0, vector, count) : out[0];
    }
    Rank& me = ranks[size_t(r)];
    me.send.resize(alltoall ? extent(a.send_blocks) : a.bytes);
    for (size_t b = 0; b < me.send.size(); ++b) me.send[b] = (unsigned char)(r * 37 + b * 11 + 1);
    me.recv.assign(extent(a.recv_blocks) + 2 * kGuard, kUntouched);
  }
  for (uint64_t seed : {1, 2, 3, 4}) {
    std::vector<coll::Schedule> schedules(static_cast<size_t>(p));
    std::vector<coll::Binding> bindings;
    for (int r = 0; r < p; ++r) {
      Rank& me = ranks[size_t(r)];
      std::fill(me.recv.begin(), me.recv.end(), kUntouched);
      algorithm.build(me.args, schedules[size_t(r)]);
      bindings.push_back({me.send.data(), me.recv.data() + kGuard});
    }
    const test::SimOutcome outcome =
        test::simulate(schedules, bindings, nullptr, test::SimRun{seed, seed % 2 == 0});
    INFO(c.name << " " << coll::coll_name(kind) << " " << algorithm.name << " count=" << count
                << (vector ? " v-variant" : "") << " seed=" << seed
                << (outcome.deadlock ? ": DEADLOCK " : " ") << outcome.error);
    REQUIRE(outcome.ok());
    for (int r = 0; r < p; ++r) {
      const Rank& me = ranks[size_t(r)];
      std::vector<unsigned char> want(me.recv.size(), kUntouched);
      for (size_t i = 0; i < from[size_t(r)].size(); ++i) {
        const auto [s, j] = from[size_t(r)][i];
        if (s < 0) continue;
        const Rank& sender = ranks[size_t(s)];
        const size_t at = alltoall ? sender.args.send_blocks[size_t(j)].offset : 0;
        const Block& in = me.args.recv_blocks[i];
        std::copy_n(sender.send.begin() + long(at), in.bytes,
                    want.begin() + long(kGuard + in.offset));
      }
      INFO("rank " << r);
      REQUIRE(me.recv == want);
    }
  }
}

}  // namespace

TEST_CASE("neighbourhood collectives put every block where the standard says", "[coll]") {
  for (const Case& c : cases()) {
    for (CollKind kind : {CollKind::kNeighborAllgather, CollKind::kNeighborAlltoall}) {
      for (const coll::Algorithm* a : coll::algorithms_for(kind)) {
        for (size_t count : {0, 1, 5}) {
          run_case(c, kind, *a, count, false);
          run_case(c, kind, *a, count, true);
        }
      }
    }
  }
}

TEST_CASE("halo exchange on 1- and 2-rank periodic rings swaps directions", "[coll]") {
  // Rank r sends 10r in its negative and 10r+1 in its positive direction; what arrives from
  // the negative neighbour is what that neighbour sent in its positive direction.
  for (int p : {1, 2, 3}) {
    const Case c = cartesian({p}, {1});
    std::vector<Ints> send(static_cast<size_t>(p)), recv(size_t(p), Ints(2, -1));
    std::vector<coll::Schedule> schedules(static_cast<size_t>(p));
    std::vector<coll::Binding> bindings;
    for (int r = 0; r < p; ++r) {
      send[size_t(r)] = {10 * r, 10 * r + 1};
      coll::CollArgs a;
      a.kind = CollKind::kNeighborAlltoall;
      a.rank = r;
      a.size = p;
      a.sources = c.ranks[size_t(r)].sources;
      a.destinations = c.ranks[size_t(r)].destinations;
      a.mirrored_pairs = true;
      a.send_blocks = a.recv_blocks = {{0, 4}, {4, 4}};
      coll::find_algorithm(a.kind, "linear")->build(a, schedules[size_t(r)]);
      bindings.push_back({send[size_t(r)].data(), recv[size_t(r)].data()});
    }
    REQUIRE(test::simulate(schedules, bindings, nullptr, test::SimRun{}).ok());
    for (int r = 0; r < p; ++r) {
      INFO("ring of " << p << ", rank " << r);
      CHECK(recv[size_t(r)] == Ints{10 * ((r + p - 1) % p) + 1, 10 * ((r + 1) % p)});
    }
  }
}
