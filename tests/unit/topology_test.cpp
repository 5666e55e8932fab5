// Process topology math without processes: MPI_Dims_create's factorization, Cartesian
// coordinates, ranks, shifts, subgrids and neighbour order, graph validation and the neighbour
// lists of each kind of topology.
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>

#include "mpi.h"
#include "runtime/topology/virtual.hpp"

using namespace weft;
using topo::CartGrid;
using Ints = std::vector<int>;

namespace {

Ints dims_of(int nnodes, Ints dims, int* error_class = nullptr) {
  const Status s = topo::dims_create(nnodes, dims);
  if (error_class != nullptr) *error_class = s.error_class;
  return dims;
}

// The smallest spread (largest - smallest) of any split of n into k factors, by brute force.
int best_spread(int n, int k) {
  int best = n;
  std::function<void(int, int, int, int)> go = [&](int rest, int left, int largest, int smallest) {
    if (left == 0) {
      if (rest == 1) best = std::min(best, largest - smallest);
      return;
    }
    for (int f = 1; f <= rest; ++f)
      if (rest % f == 0) go(rest / f, left - 1, std::max(largest, f), std::min(smallest, f));
  };
  go(n, k, 0, n + 1);
  return best;
}

// The most balanced split of n into k non-increasing factors, by brute force over all of them:
// the smallest spread (largest - smallest); among equal spreads the largest smallest factor,
// then the largest next one, and so on (the split whose ascending order is lexicographically
// largest, so 5040 = 21·16·15 rather than 20·18·14, both of spread 6).
Ints best_split(int n, int k) {
  Ints best, chosen;
  std::function<void(int, int, int)> go = [&](int rest, int left, int cap) {
    if (left == 0) {
      if (rest != 1) return;
      if (!best.empty()) {
        const int spread = chosen.front() - chosen.back(), best_spread = best.front() - best.back();
        if (spread > best_spread) return;
        if (spread == best_spread && !std::lexicographical_compare(best.rbegin(), best.rend(),
                                                                   chosen.rbegin(), chosen.rend()))
          return;
      }
      best = chosen;
      return;
    }
    for (int f = std::min(rest, cap); f >= 1; --f) {
      if (rest % f != 0) continue;
      chosen.push_back(f);
      go(rest / f, left - 1, f);
      chosen.pop_back();
    }
  };
  go(n, k, n);
  return best;
}

CartGrid grid(Ints dims, Ints periods) { return CartGrid{std::move(dims), std::move(periods)}; }

}  // namespace

TEST_CASE("dims_create: the standard's examples and balanced splits") {
  CHECK(dims_of(6, {0, 0}) == Ints{3, 2});
  CHECK(dims_of(7, {0, 0}) == Ints{7, 1});
  CHECK(dims_of(6, {0, 3, 0}) == Ints{2, 3, 1});
  CHECK(dims_of(16, {0, 0, 0}) == Ints{4, 2, 2});
  CHECK(dims_of(12, {0, 0}) == Ints{4, 3});
  CHECK(dims_of(64, {0, 0, 0}) == Ints{4, 4, 4});
  CHECK(dims_of(24, {0, 0, 0}) == Ints{4, 3, 2});
  CHECK(dims_of(30, {0, 0, 0}) == Ints{5, 3, 2});
  CHECK(dims_of(1, {0, 0, 0}) == Ints{1, 1, 1});
  CHECK(dims_of(8, {2, 0, 0}) == Ints{2, 2, 2});
  CHECK(dims_of(12, {0, 1, 0}) == Ints{4, 1, 3});
  CHECK(dims_of(12, {3, 4}) == Ints{3, 4});
  CHECK(dims_of(1, {}) == Ints{});
  CHECK(dims_of(97, {0, 0}) == Ints{97, 1});
  CHECK(dims_of(1 << 20, {0, 0, 0, 0, 0}) == Ints{16, 16, 16, 16, 16});
}

TEST_CASE("dims_create: products, order and spread against brute force") {
  for (int n = 1; n <= 120; ++n) {
    for (int k = 1; k <= 4; ++k) {
      const Ints dims = dims_of(n, Ints(size_t(k), 0));
      INFO("nnodes=" << n << " ndims=" << k);
      int product = 1;
      for (int d : dims) product *= d;
      CHECK(product == n);
      CHECK(std::is_sorted(dims.rbegin(), dims.rend()));
      CHECK(dims.front() - dims.back() == best_spread(n, k));
    }
  }
}

TEST_CASE("dims_create: equal spreads go to the split with the larger smallest factor") {
  // Each has two splits of the smallest spread; the standard asks for dimensions as close to
  // each other as possible, which the larger smallest factor (smaller ratio) is.
  CHECK(dims_of(5040, {0, 0, 0}) == Ints{21, 16, 15});   // not 20·18·14
  CHECK(dims_of(6240, {0, 0, 0}) == Ints{26, 16, 15});   // not 24·20·13
  CHECK(dims_of(10800, {0, 0, 0}) == Ints{27, 20, 20});  // not 25·24·18
  // Fixed entries stay; the free ones are the best split of what is left, non-increasing.
  CHECK(dims_of(10080, {0, 2, 0, 0}) == Ints{21, 2, 16, 15});
  CHECK(dims_of(5040, {0, 0, 0, 1}) == Ints{21, 16, 15, 1});
  for (int n : {5040, 6240, 10800, 7560, 9240, 27720, 65536, 100000, 362880}) {
    for (int k = 2; k <= 5; ++k) {
      INFO("nnodes=" << n << " ndims=" << k);
      CHECK(dims_of(n, Ints(size_t(k), 0)) == best_split(n, k));
    }
  }
}

TEST_CASE("dims_create: the most balanced split, against brute force over many sizes") {
  for (int n = 1; n <= 1500; ++n) {
    for (int k = 1; k <= (n <= 400 ? 5 : 3); ++k) {
      INFO("nnodes=" << n << " ndims=" << k);
      REQUIRE(dims_of(n, Ints(size_t(k), 0)) == best_split(n, k));
    }
  }
}

TEST_CASE("dims_create: errors leave dims alone") {
  int cls = 0;
  CHECK(dims_of(7, {0, 3, 0}, &cls) == Ints{0, 3, 0});
  CHECK(cls == MPI_ERR_DIMS);
  CHECK(dims_of(12, {3, 3}, &cls) == Ints{3, 3});
  CHECK(cls == MPI_ERR_DIMS);
  dims_of(6, {4, 0}, &cls);
  CHECK(cls == MPI_ERR_DIMS);
  dims_of(4, {0, -1}, &cls);
  CHECK(cls == MPI_ERR_DIMS);
  dims_of(2, {}, &cls);
  CHECK(cls == MPI_ERR_DIMS);
  dims_of(0, {0, 0}, &cls);
  CHECK(cls == MPI_ERR_ARG);
  Ints dims = {0, 3, 0};
  const Status s = topo::dims_create(7, dims);
  CHECK_THAT(s.message, Catch::Contains("nnodes=7") && Catch::Contains("[0,3,0]"));
}

TEST_CASE("cartesian: coordinates and ranks, row-major, round trip") {
  const CartGrid g = grid({2, 3, 4}, {0, 1, 0});
  CHECK(g.size() == 24);
  Ints c(3);
  g.coords_of(17, c);  // 17 = 1·12 + 1·4 + 1
  CHECK(c == Ints{1, 1, 1});
  for (int r = 0; r < g.size(); ++r) {
    g.coords_of(r, c);
    int back = -1;
    REQUIRE(g.rank_at(c, &back));
    CHECK(back == r);
  }
  int r = -1;
  CHECK(g.rank_at(Ints{1, -1, 3}, &r));  // dimension 1 is periodic: -1 is 2
  CHECK(r == 1 * 12 + 2 * 4 + 3);
  CHECK(g.rank_at(Ints{0, 7, 0}, &r));
  CHECK(r == 1 * 4);
  CHECK_FALSE(g.rank_at(Ints{2, 0, 0}, &r));
  CHECK_FALSE(g.rank_at(Ints{0, 0, -1}, &r));
  const CartGrid point = grid({}, {});  // zero-dimensional: one rank
  CHECK(point.size() == 1);
  CHECK(point.rank_at(Ints{}, &r));
  CHECK(r == 0);
}

TEST_CASE("cartesian: shifts, periodic and not, any displacement") {
  const CartGrid line = grid({4}, {0});
  int src = 0, dst = 0;
  line.shift(0, 0, 1, &src, &dst);
  CHECK((src == MPI_PROC_NULL && dst == 1));
  line.shift(3, 0, 1, &src, &dst);
  CHECK((src == 2 && dst == MPI_PROC_NULL));
  line.shift(1, 0, -1, &src, &dst);
  CHECK((src == 2 && dst == 0));
  line.shift(1, 0, 0, &src, &dst);
  CHECK((src == 1 && dst == 1));
  line.shift(1, 0, 5, &src, &dst);
  CHECK((src == MPI_PROC_NULL && dst == MPI_PROC_NULL));
  const CartGrid ring = grid({4}, {1});
  ring.shift(0, 0, 1, &src, &dst);
  CHECK((src == 3 && dst == 1));
  ring.shift(1, 0, 9, &src, &dst);
  CHECK((src == 0 && dst == 2));
  ring.shift(1, 0, -6, &src, &dst);
  CHECK((src == 3 && dst == 3));
  const CartGrid plane = grid({3, 2}, {0, 1});
  plane.shift(2, 0, 1, &src, &dst);  // rank 2 = (1, 0)
  CHECK((src == 0 && dst == 4));
  plane.shift(2, 1, 1, &src, &dst);  // a 2-periodic dimension: both ways reach (1, 1)
  CHECK((src == 3 && dst == 3));
  const CartGrid lonely = grid({1}, {1});
  lonely.shift(0, 0, 1, &src, &dst);
  CHECK((src == 0 && dst == 0));
}

TEST_CASE("cartesian: neighbour order is negative then positive, per dimension") {
  const CartGrid g = grid({3, 4}, {0, 1});
  // Rank 4 = (1, 0): dimension 0 gives (0, 0) = 0 and (2, 0) = 8; dimension 1 wraps to
  // (1, 3) = 7 and reaches (1, 1) = 5.
  CHECK(g.neighbors(4) == Ints{0, 8, 7, 5});
  // Rank 0 = (0, 0): no negative neighbour in dimension 0.
  CHECK(g.neighbors(0) == Ints{MPI_PROC_NULL, 4, 3, 1});
  CHECK(grid({1, 1}, {1, 0}).neighbors(0) == Ints{0, 0, MPI_PROC_NULL, MPI_PROC_NULL});
  CHECK(grid({2}, {1}).neighbors(1) == Ints{0, 0});
  CHECK(grid({}, {}).neighbors(0).empty());
}

TEST_CASE("cartesian: subgrids keep row-major order") {
  const CartGrid g = grid({2, 3, 4}, {1, 0, 1});
  const Ints keep = {1, 0, 1};
  const CartGrid sub = g.sub(keep);
  CHECK(sub.dims == Ints{2, 4});
  CHECK(sub.periods == Ints{1, 1});
  // Rank 17 = (1, 1, 1): its subgrid is every (x, 1, z), in order of (x, z).
  CHECK(g.subgrid_members(17, keep) == Ints{4, 5, 6, 7, 16, 17, 18, 19});
  const Ints none = {0, 0, 0};
  CHECK(g.sub(none).ndims() == 0);
  CHECK(g.subgrid_members(17, none) == Ints{17});
  const Ints all = {1, 1, 1};
  CHECK(g.subgrid_members(5, all).size() == 24);
}

TEST_CASE("graph: index and edges are checked, neighbours looked up") {
  const Ints index = {2, 3, 3, 5}, edges = {1, 3, 0, 0, 3};
  topo::Graph g;
  REQUIRE(topo::make_graph(4, index.data(), edges.data(), &g).ok());
  CHECK(g.nnodes() == 4);
  CHECK(Ints(g.neighbors(0).begin(), g.neighbors(0).end()) == Ints{1, 3});
  CHECK(g.neighbors(2).empty());
  CHECK(Ints(g.neighbors(3).begin(), g.neighbors(3).end()) == Ints{0, 3});  // a self-loop
  const Ints decreasing = {2, 1};
  Status s = topo::make_graph(2, decreasing.data(), edges.data(), &g);
  CHECK(s.error_class == MPI_ERR_ARG);
  CHECK_THAT(s.message, Catch::Contains("index[1]=1"));
  const Ints negative = {-1, 1};
  CHECK(topo::make_graph(2, negative.data(), edges.data(), &g).error_class == MPI_ERR_ARG);
  const Ints far = {1, 2}, far_edges = {1, 2};
  s = topo::make_graph(2, far.data(), far_edges.data(), &g);
  CHECK(s.error_class == MPI_ERR_RANK);
  CHECK_THAT(s.message, Catch::Contains("edges[1]=2"));
  CHECK(topo::make_graph(0, nullptr, nullptr, &g).ok());
}

TEST_CASE("neighbour lists of each kind of topology") {
  Topology cart;
  cart.kind = MPI_CART;
  cart.cart = grid({2, 2}, {1, 0});
  topo::Neighbors n = topo::neighbors_of(cart, 3);  // (1, 1)
  CHECK(n.sources == Ints{1, 1, 2, MPI_PROC_NULL});
  CHECK(n.destinations == n.sources);
  CHECK(n.cartesian);

  Topology graph;
  graph.kind = MPI_GRAPH;
  const Ints index = {3, 4}, edges = {1, 0, 1, 0};
  REQUIRE(topo::make_graph(2, index.data(), edges.data(), &graph.graph).ok());
  n = topo::neighbors_of(graph, 0);
  CHECK(n.sources == Ints{1, 0, 1});
  CHECK(n.destinations == Ints{1, 0, 1});
  CHECK_FALSE(n.cartesian);

  Topology dist;
  dist.kind = MPI_DIST_GRAPH;
  dist.dist_graph.sources = {2, 2};
  dist.dist_graph.destinations = {0};
  n = topo::neighbors_of(dist, 1);
  CHECK(n.sources == Ints{2, 2});
  CHECK(n.destinations == Ints{0});
  CHECK_FALSE(n.cartesian);
  CHECK(std::string(topo::topology_name(MPI_GRAPH)) == "a graph topology");
}
