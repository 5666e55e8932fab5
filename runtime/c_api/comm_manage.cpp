// Communicator management: dup, dup_with_info, idup, idup_with_info, split, create, create_group,
// free, compare, group, names and the inter-communicator test (split_type:
// comm_split_type.cpp); dup, idup, split, create, compare and free take intercommunicators too
// (runtime/comm/intercomm.hpp).
#include <algorithm>
#include <cstring>
#include <string>

#include "pt2pt/match_bits.hpp"
#include "runtime/c_api/guard.hpp"
#include "runtime/comm/create.hpp"
#include "runtime/comm/intercomm.hpp"
#include "runtime/streams/stream_queue.hpp"

using weft::Comm;
using weft::GroupRef;
using weft::Status;
using weft::world;
namespace capi = weft::capi;
using capi::comm_arg;
namespace groups = weft::groups;

namespace {

// A group for MPI_Comm_create(_group): valid, and drawn from `parent`'s ranks.
Status subgroup_arg(const Comm& parent, MPI_Group group, GroupRef* out) {
  WEFT_TRY(weft::lookup_group(world().groups, group, "group", out));
  for (int w : **out) {
    if (groups::rank_of(parent.world_ranks, w) == MPI_UNDEFINED) {
      return Status::error(MPI_ERR_GROUP, "group holds world rank " + std::to_string(w) +
                                              ", which is not in " + parent.display_name());
    }
  }
  return Status::success();
}

// MPI_Comm_idup (the parent's hints) and MPI_Comm_idup_with_info (info's hints; none for
// MPI_INFO_NULL).
int comm_idup(const char* fn, MPI_Comm comm, weft::DupHints hints, MPI_Comm* newcomm,
              MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_not_null(newcomm, "newcomm"));
  WEFT_CHECK(comm, fn, capi::check_not_null(request, "request"));
  weft::Request* r = nullptr;
  WEFT_CHECK(comm, fn, weft::start_comm_idup(*c, hints, newcomm, &r));
  *request = r;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  constexpr const char* fn = "MPI_Comm_dup";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_not_null(newcomm, "newcomm"));
  return capi::report(comm, fn, weft::comm_dup(*c, weft::DupHints::parent(), newcomm));
}

int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  constexpr const char* fn = "MPI_Comm_dup_with_info";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_not_null(newcomm, "newcomm"));
  // MPI_INFO_NULL: a duplicate without hints (Open MPI and MPICH accept it too).
  return capi::report(comm, fn, weft::comm_dup(*c, weft::DupHints::given(info), newcomm));
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  return comm_idup("MPI_Comm_idup", comm, weft::DupHints::parent(), newcomm, request);
}

int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm,
                             MPI_Request* request) {
  return comm_idup("MPI_Comm_idup_with_info", comm, weft::DupHints::given(info), newcomm, request);
}

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  constexpr const char* fn = "MPI_Comm_split";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_not_null(newcomm, "newcomm"));
  if (color < 0 && color != MPI_UNDEFINED) {
    return capi::report(comm, fn,
                        Status::error(MPI_ERR_ARG, "invalid color=" + std::to_string(color) +
                                                       " (must be >= 0 or MPI_UNDEFINED)"));
  }
  return capi::report(comm, fn, weft::comm_split(*c, color, key, newcomm));
}

int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  constexpr const char* fn = "MPI_Comm_create";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  GroupRef g;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, subgroup_arg(*c, group, &g));
  WEFT_CHECK(comm, fn, capi::check_not_null(newcomm, "newcomm"));
  return capi::report(comm, fn, weft::comm_create(*c, *g, newcomm));
}

int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  constexpr const char* fn = "MPI_Comm_create_group";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  GroupRef g;
  WEFT_CHECK(comm, fn, capi::intra_comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, subgroup_arg(*c, group, &g));
  WEFT_CHECK(comm, fn, capi::check_send_tag(tag, "tag"));
  WEFT_CHECK(comm, fn, capi::check_not_null(newcomm, "newcomm"));
  if (groups::rank_of(*g, world().comms.find(MPI_COMM_WORLD)->rank) == MPI_UNDEFINED) {
    return capi::report(comm, fn,
                        Status::error(MPI_ERR_GROUP,
                                      "the calling process is not in group (only its "
                                      "members call MPI_Comm_create_group)"));
  }
  return capi::report(comm, fn, weft::comm_create_group(*c, *g, tag, newcomm));
}

int PMPI_Comm_free(MPI_Comm* comm) {
  constexpr const char* fn = "MPI_Comm_free";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(comm, "comm"));
  Comm* c = nullptr;
  WEFT_CHECK(*comm, fn, comm_arg(*comm, "comm", &c));
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF) {
    return capi::report(
        *comm, fn, Status::error(MPI_ERR_COMM, "cannot free the predefined " + c->display_name()));
  }
  // Calls enqueued on its CUDA stream finish first: their work uses the communicator.
  if (c->stream_queue) WEFT_CHECK(*comm, fn, c->stream_queue->drain());
  WEFT_CHECK(*comm, fn, weft::comm_free(*comm));
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result) {
  constexpr const char* fn = "MPI_Comm_compare";
  WEFT_REQUIRE_RUNNING(fn);
  Comm *a = nullptr, *b = nullptr;
  WEFT_CHECK(comm1, fn, comm_arg(comm1, "comm1", &a));
  WEFT_CHECK(comm1, fn, comm_arg(comm2, "comm2", &b));
  WEFT_CHECK(comm1, fn, capi::check_not_null(result, "result"));
  *result = weft::compare_comms(*a, *b);
  return MPI_SUCCESS;
}

int PMPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
  constexpr const char* fn = "MPI_Comm_group";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_not_null(group, "group"));
  *group = world().groups.add(std::make_shared<const groups::Members>(c->world_ranks), c->session);
  return MPI_SUCCESS;
}

int PMPI_Comm_test_inter(MPI_Comm comm, int* flag) {
  constexpr const char* fn = "MPI_Comm_test_inter";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_not_null(flag, "flag"));
  *flag = c->is_inter() ? 1 : 0;
  return MPI_SUCCESS;
}

int PMPI_Comm_set_name(MPI_Comm comm, const char* name) {
  constexpr const char* fn = "MPI_Comm_set_name";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_not_null(name, "name"));
  c->name.assign(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}

int PMPI_Comm_get_name(MPI_Comm comm, char* name, int* resultlen) {
  constexpr const char* fn = "MPI_Comm_get_name";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm, fn, comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_not_null(name, "name"));
  WEFT_CHECK(comm, fn, capi::check_not_null(resultlen, "resultlen"));
  std::memcpy(name, c->name.c_str(), c->name.size() + 1);
  *resultlen = int(c->name.size());
  return MPI_SUCCESS;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Comm_dup)
WEFT_MPI_ALIAS(MPI_Comm_dup_with_info)
WEFT_MPI_ALIAS(MPI_Comm_idup)
WEFT_MPI_ALIAS(MPI_Comm_idup_with_info)
WEFT_MPI_ALIAS(MPI_Comm_split)
WEFT_MPI_ALIAS(MPI_Comm_create)
WEFT_MPI_ALIAS(MPI_Comm_create_group)
WEFT_MPI_ALIAS(MPI_Comm_free)
WEFT_MPI_ALIAS(MPI_Comm_compare)
WEFT_MPI_ALIAS(MPI_Comm_group)
WEFT_MPI_ALIAS(MPI_Comm_test_inter)
WEFT_MPI_ALIAS(MPI_Comm_set_name)
WEFT_MPI_ALIAS(MPI_Comm_get_name)
