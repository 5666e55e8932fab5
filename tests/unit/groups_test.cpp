// Group arithmetic and context-id bookkeeping, without processes.
#include <catch2/catch.hpp>

#include "mpi.h"
#include "runtime/comm/context_ids.hpp"
#include "runtime/comm/group_ops.hpp"

using namespace weft;
using groups::Members;

TEST_CASE("set operations keep the order the standard prescribes") {
  const Members a = {5, 1, 3}, b = {3, 7, 5, 9};
  CHECK(groups::set_union(a, b) == Members{5, 1, 3, 7, 9});
  CHECK(groups::intersection(a, b) == Members{5, 3});
  CHECK(groups::difference(a, b) == Members{1});
  CHECK(groups::difference(a, a).empty());
}

TEST_CASE("comparison: identical, similar, unequal") {
  CHECK(groups::compare({1, 2, 3}, {1, 2, 3}) == MPI_IDENT);
  CHECK(groups::compare({1, 2, 3}, {3, 1, 2}) == MPI_SIMILAR);
  CHECK(groups::compare({1, 2, 3}, {1, 2}) == MPI_UNEQUAL);
  CHECK(groups::compare({1, 2, 3}, {1, 2, 4}) == MPI_UNEQUAL);
}

TEST_CASE("incl, excl and ranges, with their argument errors") {
  const Members g = {10, 11, 12, 13, 14, 15};
  Members out;
  REQUIRE(groups::incl(g, {4, 0}, &out).ok());
  CHECK(out == Members{14, 10});
  REQUIRE(groups::excl(g, {0, 5}, &out).ok());
  CHECK(out == Members{11, 12, 13, 14});
  REQUIRE(groups::range_incl(g, {{5, 0, -2}, {0, 0, 1}}, &out).ok());
  CHECK(out == Members{15, 13, 11, 10});
  REQUIRE(groups::range_excl(g, {{1, 5, 2}}, &out).ok());
  CHECK(out == Members{10, 12, 14});
  REQUIRE(groups::range_incl(g, {{3, 1, 1}}, &out).ok());  // empty range
  CHECK(out.empty());

  Status s = groups::incl(g, {1, 6}, &out);
  CHECK(s.error_class == MPI_ERR_RANK);
  CHECK(s.message == "invalid rank ranks[1]=6 (the group has 6 ranks)");
  CHECK(groups::incl(g, {2, 2}, &out).error_class == MPI_ERR_RANK);
  CHECK(groups::range_incl(g, {{0, 3, 0}}, &out).error_class == MPI_ERR_ARG);
  CHECK(groups::range_incl(g, {{0, 4, 2}, {2, 3, 1}}, &out).error_class == MPI_ERR_RANK);
}

TEST_CASE("rank translation and membership") {
  const Members from = {4, 2, 9}, to = {9, 4};
  std::vector<int> out;
  REQUIRE(groups::translate(from, {0, 1, 2, MPI_PROC_NULL}, to, &out).ok());
  CHECK(out == std::vector<int>{1, MPI_UNDEFINED, 0, MPI_PROC_NULL});
  CHECK(groups::translate(from, {3}, to, &out).error_class == MPI_ERR_RANK);
  CHECK(groups::rank_of(from, 9) == 2);
  CHECK(groups::rank_of(from, 5) == MPI_UNDEFINED);
}

TEST_CASE("context pairs: the lowest pair free on every process is the one agreed") {
  ContextIds here, there;
  uint64_t a[ContextIds::kWindowWords], b[ContextIds::kWindowWords];
  CHECK_FALSE(here.is_free(ContextIds::kPartitionedPair));
  CHECK_FALSE(here.is_free(ContextIds::kFromGroupPair));
  CHECK_FALSE(here.is_free(ContextIds::kConnectPair));
  CHECK_FALSE(here.is_free(ContextIds::kTransportPair));
  here.take(6);
  there.take(7);
  here.free_mask(0, a);
  there.free_mask(0, b);
  for (uint32_t i = 0; i < ContextIds::kWindowWords; ++i) a[i] &= b[i];
  CHECK(lowest_free(0, a) == 8);  // 0 and 1 are the predefined communicators', 2 to 5 reserved
  here.release(6);
  CHECK(here.is_free(6));
  CHECK_FALSE(here.is_free(1));
  for (uint32_t i = 0; i < ContextIds::kWindowWords; ++i) a[i] = 0;
  CHECK(lowest_free(0, a) == -1);
  a[ContextIds::kWindowWords - 1] = uint64_t{1} << 63;
  CHECK(lowest_free(2, a) == 3 * int64_t(ContextIds::kWindowPairs) - 1);
}
