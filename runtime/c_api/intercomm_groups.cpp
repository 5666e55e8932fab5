// MPI_Intercomm_create_from_groups (MPI 4.1 §7.6.2): an intercommunicator from two disjoint
// groups without a parent communicator. Each group first becomes a communicator of its own
// (MPI_Comm_create_from_group's agreement, runtime/session/), the two leaders make one of the
// pair of them, and MPI_Intercomm_create runs over those; the stringtag, extended per step,
// keeps concurrent calls apart.
#include <algorithm>
#include <string>

#include "runtime/c_api/group_comm_args.hpp"
#include "runtime/c_api/guard.hpp"
#include "runtime/comm/create.hpp"
#include "runtime/comm/errhandler.hpp"
#include "runtime/comm/intercomm.hpp"
#include "runtime/session/session.hpp"

using weft::Comm;
using weft::Status;
using weft::world;
namespace capi = weft::capi;

namespace {

// The communicators made along the way: they return errors, and belong to no session.
constexpr weft::CommOrigin kTemporary{MPI_ERRORS_RETURN, MPI_SESSION_NULL};

Status check_leader(int leader, const weft::groups::Members& group, const char* arg) {
  if (leader >= 0 && size_t(leader) < group.size()) return Status::success();
  return Status::error(MPI_ERR_RANK, "invalid rank " + std::string(arg) + "=" +
                                         std::to_string(leader) + " (the group has " +
                                         std::to_string(group.size()) + " members)");
}

// The leaders' own communicator of the two of them (only the local leader calls this).
weft::LeaderLink leaders_link(int me, int them, const std::string& tag, MPI_Comm* pair) {
  weft::LeaderLink link;
  if (me == them) {
    link.leader_args = Status::error(
        MPI_ERR_GROUP, "the local and the remote leader are one process (world rank " +
                           std::to_string(me) + "): the groups must be disjoint");
    return link;
  }
  const weft::groups::Members both = {std::min(me, them), std::max(me, them)};
  link.leader_args = weft::comm_from_group(both, tag + "\x1fleaders", kTemporary, pair);
  if (!link.leader_args.ok()) return link;
  link.peer = world().comms.find(*pair);
  link.remote_leader = them < me ? 0 : 1;
  return link;
}

// The intercommunicator takes `errhandler`, and the session of the local group (through the
// communicator of that group it is made over).
Status create(const weft::groups::Members& local, int local_leader,
              const weft::groups::Members& remote, int remote_leader, const std::string& tag,
              MPI_Errhandler errhandler, MPI_Session session, MPI_Comm* out) {
  MPI_Comm local_comm = MPI_COMM_NULL;
  WEFT_TRY(
      weft::comm_from_group(local, tag + "\x1flocal", {MPI_ERRORS_RETURN, session}, &local_comm));
  Comm* lc = world().comms.find(local_comm);
  MPI_Comm pair = MPI_COMM_NULL;
  weft::LeaderLink link;
  if (lc->rank == local_leader)
    link = leaders_link(local[size_t(local_leader)], remote[size_t(remote_leader)], tag, &pair);
  const Status made = weft::intercomm_create(*lc, local_leader, link, out);
  if (pair != MPI_COMM_NULL) (void)weft::comm_free(pair);
  (void)weft::comm_free(local_comm);
  WEFT_TRY(made);
  weft::errhandler_replace(&world().comms.find(*out)->errhandler, errhandler);
  return Status::success();
}

}  // namespace

extern "C" {

int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                      MPI_Group remote_group, int remote_leader,
                                      const char* stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm* newintercomm) {
  constexpr const char* fn = "MPI_Intercomm_create_from_groups";
  WEFT_REQUIRE_RUNNING(fn);
  weft::GroupRef local, remote;
  WEFT_CHECK(MPI_COMM_SELF, fn,
             weft::lookup_group(world().groups, local_group, "local_group", &local));
  WEFT_CHECK(MPI_COMM_SELF, fn,
             weft::lookup_group(world().groups, remote_group, "remote_group", &remote));
  WEFT_CHECK(MPI_COMM_SELF, fn, check_leader(local_leader, *local, "local_leader"));
  WEFT_CHECK(MPI_COMM_SELF, fn, check_leader(remote_leader, *remote, "remote_leader"));
  WEFT_CHECK(MPI_COMM_SELF, fn, capi::check_stringtag(stringtag));
  WEFT_CHECK(MPI_COMM_SELF, fn, capi::check_hints(info));
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  WEFT_CHECK(MPI_COMM_SELF, fn, capi::new_comm_errhandler(errhandler, &handler));
  WEFT_CHECK(MPI_COMM_SELF, fn, capi::check_not_null(newintercomm, "newintercomm"));
  return capi::report(MPI_COMM_SELF, fn,
                      create(*local, local_leader, *remote, remote_leader, stringtag, handler,
                             world().groups.session_of(local_group), newintercomm));
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Intercomm_create_from_groups)
