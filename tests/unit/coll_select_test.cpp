// Algorithm selection: forcing by name, falling back when the forced algorithm cannot take the
// call, never choosing one that cannot, the reasons given, and sensible default choices.
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "coll/configure.hpp"
#include "coll/registry.hpp"
#include "coll/regular_call.hpp"
#include "regular_call_args.hpp"
#include "coll/select.hpp"
#include "mpi.h"

using namespace weft;
using namespace weft::coll;

namespace {

CollArgs call(CollKind kind, int size, size_t bytes, bool commutative = true, int root = 0) {
  return weft::test::regular_call_args(kind, size, bytes, commutative, root);
}

// An alltoallv whose blocks differ from rank to rank.
CollArgs alltoallv(int size, size_t bytes) {
  CollArgs a = call(CollKind::kAlltoall, size, 0);
  a.uniform = false;
  size_t offset = 0;
  for (int i = 0; i < size; ++i) {
    a.recv_blocks[size_t(i)] = {offset, bytes * size_t(i + 1)};
    offset += bytes * size_t(i + 1);
  }
  a.send_blocks = a.recv_blocks;
  return a;
}

std::string name_of(const Algorithm* a) { return a == nullptr ? "(none)" : a->name; }

bool accepts(const Algorithm* a, const CollArgs& args) {
  return a != nullptr && (a->accepts == nullptr || a->accepts(args));
}

const std::vector<size_t> kSizes = {0, 1, 8, 100, 4096, 65536, 1 << 20, 16 << 20};

}  // namespace

TEST_CASE("select: forcing a name makes choose() return it, even when it is not the cheapest") {
  Selector s;
  const CollArgs small = call(CollKind::kAllreduce, 8, 8);
  REQUIRE(s.choose(small)->name == std::string("recursive_doubling"));
  REQUIRE(s.force(CollKind::kAllreduce, "linear").ok());
  CHECK(name_of(s.forced(CollKind::kAllreduce)) == "linear");
  CHECK(name_of(s.choose(small)) == "linear");
  // Other collectives are not affected.
  CHECK(s.forced(CollKind::kBcast) == nullptr);
  CHECK(name_of(s.choose(call(CollKind::kBcast, 8, 8))) == "binomial");
  // "auto" and "" give the choice back to the model.
  REQUIRE(s.force(CollKind::kAllreduce, "auto").ok());
  CHECK(s.forced(CollKind::kAllreduce) == nullptr);
  CHECK(name_of(s.choose(small)) == "recursive_doubling");
  REQUIRE(s.force(CollKind::kAllreduce, "ring").ok());
  REQUIRE(s.force(CollKind::kAllreduce, "").ok());
  CHECK(s.forced(CollKind::kAllreduce) == nullptr);
}

TEST_CASE("select: every registered algorithm can be forced by its name") {
  for (int k = 0; k < kNumCollKinds; ++k) {
    for (const Algorithm* a : algorithms_for(CollKind(k))) {
      Selector s;
      INFO(coll_name(CollKind(k)) << " " << a->name);
      REQUIRE(s.force(CollKind(k), a->name).ok());
      CHECK(s.forced(CollKind(k)) == a);
      CHECK(a->kind == CollKind(k));
    }
  }
}

TEST_CASE("select: an unknown name fails, lists the choices and changes nothing") {
  Selector s;
  REQUIRE(s.force(CollKind::kAllreduce, "ring").ok());
  const Status st = s.force(CollKind::kAllreduce, "butterfly");
  REQUIRE_FALSE(st.ok());
  CHECK(st.error_class == MPI_ERR_ARG);
  CHECK_THAT(st.message, Catch::Contains("'butterfly'"));
  CHECK_THAT(st.message, Catch::Contains("allreduce"));
  for (const Algorithm* a : algorithms_for(CollKind::kAllreduce))
    CHECK_THAT(st.message, Catch::Contains(a->name));
  CHECK_THAT(st.message, Catch::Contains("auto"));
  CHECK(name_of(s.forced(CollKind::kAllreduce)) == "ring");
  // A name of another collective's algorithm is unknown here too.
  CHECK_FALSE(s.force(CollKind::kBarrier, "binomial").ok());
}

TEST_CASE("select: a forced algorithm that cannot take the call falls back to the model") {
  Selector s;
  REQUIRE(s.force(CollKind::kAllreduce, "ring").ok());
  CHECK(name_of(s.choose(call(CollKind::kAllreduce, 8, 1 << 20))) == "ring");
  const CollArgs noncommutative = call(CollKind::kAllreduce, 8, 8, false);
  CHECK(name_of(s.choose(noncommutative)) == "recursive_doubling");

  REQUIRE(s.force(CollKind::kAlltoall, "bruck").ok());
  CHECK(name_of(s.choose(call(CollKind::kAlltoall, 8, 8))) == "bruck");
  const Algorithm* v = s.choose(alltoallv(8, 8));
  CHECK(name_of(v) != "bruck");
  CHECK(accepts(v, alltoallv(8, 8)));
}

TEST_CASE("select: the choice always accepts the call") {
  Selector s;
  for (int k = 0; k < kNumCollKinds; ++k) {
    for (int size : {1, 2, 3, 4, 5, 7, 8, 12, 16, 31, 64}) {
      for (size_t bytes : kSizes) {
        for (bool commutative : {true, false}) {
          const CollArgs args = call(CollKind(k), size, bytes, commutative, size - 1);
          const Algorithm* a = s.choose(args);
          INFO(coll_name(CollKind(k)) << " p=" << size << " n=" << bytes
                                      << " commutative=" << commutative << ": " << name_of(a));
          REQUIRE(accepts(a, args));
        }
      }
    }
  }
}

TEST_CASE("select: non-commutative allreduce never gets ring or rabenseifner") {
  Selector s;
  CostModel bandwidth_bound;  // makes the bandwidth algorithms as attractive as they get
  bandwidth_bound.alpha_us = 0;
  for (const CostModel& m : {CostModel{}, bandwidth_bound}) {
    s.set_model(m);
    for (int size = 2; size <= 64; ++size) {
      for (size_t bytes : kSizes) {
        const std::string name = name_of(s.choose(call(CollKind::kAllreduce, size, bytes, false)));
        INFO("p=" << size << " n=" << bytes << ": " << name);
        CHECK(name != "ring");
        CHECK(name != "rabenseifner");
        const std::string rs =
            name_of(s.choose(call(CollKind::kReduceScatter, size, bytes / 8 + 1, false)));
        CHECK(rs != "ring");
        CHECK(rs != "recursive_halving");
        CHECK(name_of(s.choose(call(CollKind::kReduce, size, bytes, false))) != "rabenseifner");
      }
    }
  }
}

TEST_CASE("select: alltoallv never gets bruck") {
  Selector s;
  CostModel latency_bound;  // makes bruck as attractive as it gets
  latency_bound.alpha_us = 1000;
  latency_bound.beta_ns_per_byte = 0;
  for (const CostModel& m : {CostModel{}, latency_bound}) {
    s.set_model(m);
    for (int size = 2; size <= 64; ++size) {
      for (size_t bytes : {size_t(1), size_t(64), size_t(65536)}) {
        INFO("p=" << size << " n=" << bytes);
        CHECK(name_of(s.choose(alltoallv(size, bytes))) != "bruck");
      }
    }
  }
}

TEST_CASE("select: candidates list every algorithm in registry order, costed when they accept") {
  Selector s;
  const CollArgs args = call(CollKind::kAllreduce, 8, 1 << 20, false);
  const std::vector<Candidate> c = s.candidates(args);
  const auto registered = algorithms_for(CollKind::kAllreduce);
  REQUIRE(c.size() == registered.size());
  for (size_t i = 0; i < c.size(); ++i) {
    INFO(c[i].algorithm->name);
    CHECK(c[i].algorithm == registered[i]);
    CHECK(c[i].accepts == accepts(c[i].algorithm, args));
    if (c[i].accepts) CHECK(c[i].seconds > 0);
  }
  // choose() takes the cheapest accepting candidate.
  const Candidate* best = nullptr;
  for (const Candidate& x : c)
    if (x.accepts && (best == nullptr || x.seconds < best->seconds)) best = &x;
  REQUIRE(best != nullptr);
  CHECK(s.choose(args) == best->algorithm);
}

TEST_CASE("select: rejection reasons say what the call lacks") {
  const CollArgs noncommutative = call(CollKind::kAllreduce, 8, 1024, false);
  CHECK(rejection_reason(*find_algorithm(CollKind::kAllreduce, "ring"), noncommutative) ==
        "needs a commutative op");
  CHECK(
      rejection_reason(*find_algorithm(CollKind::kAllreduce, "recursive_doubling"), noncommutative)
          .empty());
  const Algorithm* bruck = find_algorithm(CollKind::kAlltoall, "bruck");
  CHECK_THAT(rejection_reason(*bruck, alltoallv(4, 8)), Catch::Contains("not a v-variant"));
  CHECK(rejection_reason(*bruck, call(CollKind::kAlltoall, 4, 8)).empty());
}

TEST_CASE("select: the default model makes sensible choices") {
  Selector s;
  // Short vectors: fewest rounds. Long vectors: the bandwidth algorithms.
  CHECK(name_of(s.choose(call(CollKind::kAllreduce, 8, 8))) == "recursive_doubling");
  const std::string large = name_of(s.choose(call(CollKind::kAllreduce, 8, 16 << 20)));
  CHECK((large == "rabenseifner" || large == "ring"));
  const std::string large_odd = name_of(s.choose(call(CollKind::kAllreduce, 7, 16 << 20)));
  CHECK((large_odd == "rabenseifner" || large_odd == "ring"));
  CHECK(name_of(s.choose(call(CollKind::kBcast, 8, 8))) == "binomial");
  const std::string bcast_large = name_of(s.choose(call(CollKind::kBcast, 8, 16 << 20)));
  CHECK((bcast_large == "pipeline" || bcast_large == "scatter_allgather"));
  CHECK(name_of(s.choose(call(CollKind::kBarrier, 16, 0))) == "dissemination");
  CHECK(name_of(s.choose(call(CollKind::kGather, 16, 64))) == "binomial");
  CHECK(name_of(s.choose(call(CollKind::kScan, 16, 64))) == "recursive_doubling");
  // One rank: nothing to move, whatever is chosen accepts.
  CHECK(s.choose(call(CollKind::kAllreduce, 1, 1 << 20)) != nullptr);
}

TEST_CASE("select: oversubscription (a larger alpha) moves the choice toward fewer rounds") {
  CostModel m;
  Selector normal, over;
  normal.set_model(effective_model(m, false));
  m.alpha_oversubscribed_us = 1000;
  over.set_model(effective_model(m, true));
  // 64 KiB on 8 ranks: the model prefers a bandwidth algorithm at 1 us per message but the
  // latency-optimal one at 1 ms.
  const CollArgs args = call(CollKind::kAllreduce, 8, 64 << 10);
  const Algorithm* a = normal.choose(args);
  const Algorithm* b = over.choose(args);
  CHECK(a->cost(args).rounds > b->cost(args).rounds);
}

TEST_CASE("select: regular_args builds what the C API builds") {
  const CollArgs rs = call(CollKind::kReduceScatter, 4, 100, false);
  CHECK(rs.bytes == 400);
  REQUIRE(rs.blocks.size() == 4);
  CHECK(rs.blocks[3].offset == 300);
  CHECK(rs.blocks[3].bytes == 100);
  CHECK(rs.uniform);
  CHECK_FALSE(rs.commutative);
  const CollArgs a2a = call(CollKind::kAlltoall, 3, 10);
  REQUIRE(a2a.recv_blocks.size() == 3);
  CHECK(a2a.send_blocks.size() == 3);
  CHECK(a2a.recv_blocks[2].offset == 20);
  const CollArgs g = call(CollKind::kGather, 5, 8, true, 4);
  CHECK(g.root == 4);
  CHECK(g.total_block_bytes() == 40);
  const CollArgs b = call(CollKind::kBcast, 5, 8, false, 2);
  CHECK(b.root == 2);
  CHECK(b.bytes == 8);
  CHECK(b.commutative);  // only reductions carry the op's commutativity
}

TEST_CASE("select: WEFT_<COLL>_ALGORITHM settings force, and a bad name is a problem") {
  CHECK(algorithm_setting(CollKind::kReduceScatter) == "WEFT_REDUCE_SCATTER_ALGORITHM");
  setenv("WEFT_ALLREDUCE_ALGORITHM", "ring", 1);
  setenv("WEFT_BCAST_ALGORITHM", "nonsense", 1);
  Selector s;
  std::vector<std::string> problems;
  force_from_settings(&s, &problems);
  unsetenv("WEFT_ALLREDUCE_ALGORITHM");
  unsetenv("WEFT_BCAST_ALGORITHM");
  CHECK(name_of(s.forced(CollKind::kAllreduce)) == "ring");
  CHECK(s.forced(CollKind::kBcast) == nullptr);
  REQUIRE(problems.size() == 1);
  CHECK_THAT(problems[0], Catch::Contains("WEFT_BCAST_ALGORITHM"));
  CHECK_THAT(problems[0], Catch::Contains("pipeline"));
}

TEST_CASE("select: the choice is the same on every rank, in place or not") {
  // Ranks choose independently, so the choice may depend only on what all ranks share.
  Selector s;
  for (int k = 0; k < kNumCollKinds; ++k) {
    for (int size : {2, 3, 8, 13}) {
      for (size_t bytes : kSizes) {
        CollArgs args = call(CollKind(k), size, bytes, k % 2 == 0, 1);
        const Algorithm* first = s.choose(args);
        for (int rank = 0; rank < size; ++rank) {
          for (bool in_place : {false, true}) {
            args.rank = rank;
            args.in_place = in_place;
            INFO(coll_name(CollKind(k)) << " p=" << size << " n=" << bytes << " rank=" << rank
                                        << " in_place=" << in_place);
            CHECK(s.choose(args) == first);
          }
        }
      }
    }
  }
}
