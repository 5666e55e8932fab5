// Selection on communicators that span nodes: the node-aware (two-level) algorithms only there,
// chosen by the default model for short messages, the flat bandwidth algorithms still for long
// ones, the other-node α and β charged as the model says, and no change at all on one node.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "coll/registry.hpp"
#include "coll/regular_call.hpp"
#include "regular_call_args.hpp"
#include "coll/select.hpp"

using namespace weft;
using namespace weft::coll;

namespace {

CollArgs call(CollKind kind, int size, size_t bytes, int nodes, bool commutative = true,
              int root = 0) {
  return weft::test::regular_call_args(kind, size, bytes, commutative, root, nodes);
}

std::string name_of(const Algorithm* a) { return a == nullptr ? "(none)" : a->name; }

const std::vector<size_t> kSizes = {0, 1, 8, 100, 4096, 65536, 1 << 20, 16 << 20};
const CollKind kTwoLevel[] = {CollKind::kBarrier, CollKind::kBcast, CollKind::kReduce,
                              CollKind::kAllreduce, CollKind::kAllgather};

}  // namespace

TEST_CASE("select nodes: every two-level collective has one node-aware algorithm") {
  for (CollKind kind : kTwoLevel) {
    const Algorithm* a = find_algorithm(kind, "hierarchical");
    INFO(coll_name(kind));
    REQUIRE(a != nullptr);
    CHECK(a->node_aware);
  }
  int node_aware = 0;
  for (int k = 0; k < kNumCollKinds; ++k)
    for (const Algorithm* a : algorithms_for(CollKind(k))) node_aware += a->node_aware ? 1 : 0;
  CHECK(node_aware == 5);
}

TEST_CASE("select nodes: on one node nothing changes and no node-aware algorithm is chosen") {
  Selector s;
  // A node map of one node (what a communicator on one node never carries, but may).
  for (int k = 0; k < kNumCollKinds; ++k) {
    for (int size : {1, 2, 3, 4, 8, 13, 64}) {
      for (size_t bytes : kSizes) {
        for (bool commutative : {true, false}) {
          const CollArgs flat = call(CollKind(k), size, bytes, 1, commutative, size - 1);
          CollArgs one_node = flat;
          one_node.nodes =
              std::make_shared<const NodeMap>(NodeMap::from_ids(std::vector<int>(size_t(size), 7)));
          const Algorithm* a = s.choose(flat);
          INFO(coll_name(CollKind(k)) << " p=" << size << " n=" << bytes << ": " << name_of(a));
          CHECK_FALSE(a->node_aware);
          CHECK(s.choose(one_node) == a);
          for (const Candidate& c : s.candidates(flat)) {
            if (!c.algorithm->node_aware) continue;
            CHECK_FALSE(c.accepts);
            CHECK_THAT(rejection_reason(*c.algorithm, flat), Catch::Contains("several nodes"));
          }
        }
      }
    }
  }
}

TEST_CASE("select nodes: across nodes the default model takes two levels for short messages") {
  Selector s;
  for (int size : {4, 8, 16, 32, 64}) {
    for (int nodes : {2, 4}) {
      if (size < 2 * nodes) continue;  // at least two ranks per node
      for (CollKind kind : kTwoLevel) {
        for (size_t bytes : {size_t(0), size_t(8), size_t(64)}) {
          CollArgs args = call(kind, size, bytes, nodes, true, size - 1);
          const Algorithm* first = s.choose(args);
          INFO(coll_name(kind) << " p=" << size << " on " << nodes << " nodes, n=" << bytes);
          CHECK(name_of(first) == "hierarchical");
          for (int rank = 0; rank < size; ++rank) {  // every rank chooses the same
            args.rank = rank;
            CHECK(s.choose(args) == first);
          }
        }
      }
    }
  }
  // One rank per node: two levels are one, and the flat algorithm (listed first) keeps it.
  CHECK(name_of(s.choose(call(CollKind::kAllreduce, 8, 8, 8))) == "recursive_doubling");
}

TEST_CASE("select nodes: long vectors across nodes still get the bandwidth algorithms") {
  Selector s;
  const std::string allreduce = name_of(s.choose(call(CollKind::kAllreduce, 16, 16 << 20, 2)));
  CHECK((allreduce == "rabenseifner" || allreduce == "ring"));
  const std::string bcast = name_of(s.choose(call(CollKind::kBcast, 16, 16 << 20, 2)));
  CHECK((bcast == "pipeline" || bcast == "scatter_allgather"));
}

TEST_CASE("select nodes: non-commutative reductions take two levels only on consecutive nodes") {
  Selector s;
  const Algorithm& two_level = *find_algorithm(CollKind::kAllreduce, "hierarchical");
  const CollArgs blocks = call(CollKind::kAllreduce, 8, 8, 2, false);
  CHECK(two_level.accepts(blocks));
  CHECK(s.choose(blocks) == &two_level);
  CollArgs round_robin = blocks;
  round_robin.nodes =
      std::make_shared<const NodeMap>(NodeMap::from_ids(std::vector<int>{0, 1, 0, 1, 0, 1, 0, 1}));
  CHECK_FALSE(two_level.accepts(round_robin));
  CHECK(s.choose(round_robin) != &two_level);
  CHECK_THAT(rejection_reason(two_level, round_robin), Catch::Contains("consecutive"));
  round_robin.commutative = true;
  CHECK(two_level.accepts(round_robin));
}

TEST_CASE("select nodes: each part of a cost is charged at its link's alpha and beta") {
  CostModel m;
  m.alpha_us = 1;
  m.beta_ns_per_byte = 0.5;
  m.alpha_inter_us = 10;
  m.beta_inter_ns_per_byte = 2;
  m.gamma_ns_per_byte = 0.25;
  Cost c;
  c.rounds = 5;
  c.bytes = 1000;
  c.reduced = 400;
  c.node_rounds = 3;
  c.node_bytes = 600;
  // One node: everything at the same-node rates.
  CHECK(predict_seconds(c, m, false) == Approx((5 * 1 + 1000 * 0.5e-3 + 400 * 0.25e-3) * 1e-6));
  // Across nodes: 3 rounds and 600 B within a node, 2 rounds and 400 B to other nodes.
  CHECK(predict_seconds(c, m, true) ==
        Approx((3 * 1 + 2 * 10 + 600 * 0.5e-3 + 400 * 2e-3 + 400 * 0.25e-3) * 1e-6));
  // A flat cost (nothing marked as within a node) is charged entirely as crossing nodes.
  const Cost flat{5, 1000, 400};
  CHECK(predict_seconds(flat, m, true) == Approx((5 * 10 + 1000 * 2e-3 + 400 * 0.25e-3) * 1e-6));
}

TEST_CASE("select nodes: two-level costs keep the node part within the whole") {
  for (CollKind kind : kTwoLevel) {
    const Algorithm& a = *find_algorithm(kind, "hierarchical");
    for (int size : {2, 5, 16, 64}) {
      for (int nodes = 2; nodes <= size; nodes *= 2) {
        const Cost c = a.cost(call(kind, size, 1000, nodes, true, size / 2));
        INFO(coll_name(kind) << " p=" << size << " on " << nodes << " nodes");
        CHECK(c.node_rounds >= 0);
        CHECK(c.node_rounds <= c.rounds);
        CHECK(c.node_bytes <= c.bytes);
        CHECK(c.rounds - c.node_rounds >= 1);  // the leaders' part crosses nodes
      }
    }
  }
}
