// Groups: size, rank, the set operations, inclusion/exclusion, translation, comparison, free.
#include <cstring>

#include "runtime/c_api/guard.hpp"
#include "runtime/comm/group.hpp"

using weft::GroupRef;
using weft::Status;
using weft::world;
namespace capi = weft::capi;
namespace groups = weft::groups;

namespace {

// Group functions raise their errors on MPI_COMM_WORLD's handler (groups have none of their own).
constexpr MPI_Comm kReportOn = MPI_COMM_WORLD;

Status group_arg(MPI_Group handle, const char* arg, GroupRef* out) {
  return weft::lookup_group(world().groups, handle, arg, out);
}

// A new handle for `members` (MPI_GROUP_EMPTY when there are none), made from group `from`: it
// derives from the session that group derives from.
MPI_Group new_group(groups::Members members, MPI_Group from) {
  if (members.empty()) return MPI_GROUP_EMPTY;
  return world().groups.add(std::make_shared<const groups::Members>(std::move(members)),
                            world().groups.session_of(from));
}

Status rank_list(int n, const int* ranks, const char* arg, std::vector<int>* out) {
  WEFT_TRY(capi::check_count(n, "n"));
  if (n > 0) WEFT_TRY(capi::check_not_null(ranks, arg));
  out->assign(ranks, ranks + n);
  return Status::success();
}

// MPI_Group_incl/excl: `pick` maps (group, ranks) to the new members.
int by_ranks(const char* fn, MPI_Group group, int n, const int* ranks, MPI_Group* newgroup,
             Status (*pick)(const groups::Members&, const std::vector<int>&, groups::Members*)) {
  WEFT_REQUIRE_RUNNING(fn);
  GroupRef g;
  std::vector<int> list;
  groups::Members members;
  WEFT_CHECK(kReportOn, fn, group_arg(group, "group", &g));
  WEFT_CHECK(kReportOn, fn, rank_list(n, ranks, "ranks", &list));
  WEFT_CHECK(kReportOn, fn, capi::check_not_null(newgroup, "newgroup"));
  WEFT_CHECK(kReportOn, fn, pick(*g, list, &members));
  *newgroup = new_group(std::move(members), group);
  return MPI_SUCCESS;
}

// MPI_Group_range_incl/excl.
int by_ranges(const char* fn, MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup,
              Status (*pick)(const groups::Members&, const std::vector<groups::RankRange>&,
                             groups::Members*)) {
  WEFT_REQUIRE_RUNNING(fn);
  GroupRef g;
  WEFT_CHECK(kReportOn, fn, group_arg(group, "group", &g));
  WEFT_CHECK(kReportOn, fn, capi::check_count(n, "n"));
  if (n > 0) WEFT_CHECK(kReportOn, fn, capi::check_not_null(ranges, "ranges"));
  WEFT_CHECK(kReportOn, fn, capi::check_not_null(newgroup, "newgroup"));
  std::vector<groups::RankRange> list;
  for (int i = 0; i < n; ++i) list.push_back({ranges[i][0], ranges[i][1], ranges[i][2]});
  groups::Members members;
  WEFT_CHECK(kReportOn, fn, pick(*g, list, &members));
  *newgroup = new_group(std::move(members), group);
  return MPI_SUCCESS;
}

// MPI_Group_union/intersection/difference.
int combine(const char* fn, MPI_Group group1, MPI_Group group2, MPI_Group* newgroup,
            groups::Members (*op)(const groups::Members&, const groups::Members&)) {
  WEFT_REQUIRE_RUNNING(fn);
  GroupRef a, b;
  WEFT_CHECK(kReportOn, fn, group_arg(group1, "group1", &a));
  WEFT_CHECK(kReportOn, fn, group_arg(group2, "group2", &b));
  WEFT_CHECK(kReportOn, fn, capi::check_not_null(newgroup, "newgroup"));
  *newgroup = new_group(op(*a, *b), group1);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Group_size(MPI_Group group, int* size) {
  constexpr const char* fn = "MPI_Group_size";
  WEFT_REQUIRE_RUNNING(fn);
  GroupRef g;
  WEFT_CHECK(kReportOn, fn, group_arg(group, "group", &g));
  WEFT_CHECK(kReportOn, fn, capi::check_not_null(size, "size"));
  *size = int(g->size());
  return MPI_SUCCESS;
}

int PMPI_Group_rank(MPI_Group group, int* rank) {
  constexpr const char* fn = "MPI_Group_rank";
  WEFT_REQUIRE_RUNNING(fn);
  GroupRef g;
  WEFT_CHECK(kReportOn, fn, group_arg(group, "group", &g));
  WEFT_CHECK(kReportOn, fn, capi::check_not_null(rank, "rank"));
  *rank = groups::rank_of(*g, world().comms.find(MPI_COMM_WORLD)->rank);
  return MPI_SUCCESS;
}

int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  return by_ranks("MPI_Group_incl", group, n, ranks, newgroup, groups::incl);
}

int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  return by_ranks("MPI_Group_excl", group, n, ranks, newgroup, groups::excl);
}

int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  return by_ranges("MPI_Group_range_incl", group, n, ranges, newgroup, groups::range_incl);
}

int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  return by_ranges("MPI_Group_range_excl", group, n, ranges, newgroup, groups::range_excl);
}

int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return combine("MPI_Group_union", group1, group2, newgroup, groups::set_union);
}

int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return combine("MPI_Group_intersection", group1, group2, newgroup, groups::intersection);
}

int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return combine("MPI_Group_difference", group1, group2, newgroup, groups::difference);
}

int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                               int ranks2[]) {
  constexpr const char* fn = "MPI_Group_translate_ranks";
  WEFT_REQUIRE_RUNNING(fn);
  GroupRef a, b;
  std::vector<int> list, out;
  WEFT_CHECK(kReportOn, fn, group_arg(group1, "group1", &a));
  WEFT_CHECK(kReportOn, fn, group_arg(group2, "group2", &b));
  WEFT_CHECK(kReportOn, fn, rank_list(n, ranks1, "ranks1", &list));
  if (n > 0) WEFT_CHECK(kReportOn, fn, capi::check_not_null(ranks2, "ranks2"));
  WEFT_CHECK(kReportOn, fn, groups::translate(*a, list, *b, &out));
  if (n > 0) std::memcpy(ranks2, out.data(), sizeof(int) * size_t(n));
  return MPI_SUCCESS;
}

int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int* result) {
  constexpr const char* fn = "MPI_Group_compare";
  WEFT_REQUIRE_RUNNING(fn);
  GroupRef a, b;
  WEFT_CHECK(kReportOn, fn, group_arg(group1, "group1", &a));
  WEFT_CHECK(kReportOn, fn, group_arg(group2, "group2", &b));
  WEFT_CHECK(kReportOn, fn, capi::check_not_null(result, "result"));
  *result = groups::compare(*a, *b);
  return MPI_SUCCESS;
}

int PMPI_Group_free(MPI_Group* group) {
  constexpr const char* fn = "MPI_Group_free";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kReportOn, fn, capi::check_not_null(group, "group"));
  GroupRef g;
  WEFT_CHECK(kReportOn, fn, group_arg(*group, "group", &g));
  world().groups.release(group);
  return MPI_SUCCESS;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Group_size)
WEFT_MPI_ALIAS(MPI_Group_rank)
WEFT_MPI_ALIAS(MPI_Group_incl)
WEFT_MPI_ALIAS(MPI_Group_excl)
WEFT_MPI_ALIAS(MPI_Group_range_incl)
WEFT_MPI_ALIAS(MPI_Group_range_excl)
WEFT_MPI_ALIAS(MPI_Group_union)
WEFT_MPI_ALIAS(MPI_Group_intersection)
WEFT_MPI_ALIAS(MPI_Group_difference)
WEFT_MPI_ALIAS(MPI_Group_translate_ranks)
WEFT_MPI_ALIAS(MPI_Group_compare)
WEFT_MPI_ALIAS(MPI_Group_free)
