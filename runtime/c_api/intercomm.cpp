// Intercommunicators (MPI 4.1 §7.6): MPI_Intercomm_create, MPI_Intercomm_merge and the remote
// group's queries, MPI_Comm_remote_size and MPI_Comm_remote_group.
#include "runtime/comm/intercomm.hpp"

#include <string>

#include "runtime/c_api/guard.hpp"

using weft::Comm;
using weft::Status;
using weft::world;
namespace capi = weft::capi;

namespace {

// The leader's own arguments: peer_comm (an intracommunicator) and a remote leader in it that is
// not the leader itself.
weft::LeaderLink leader_link(MPI_Comm peer_comm, int remote_leader, int tag) {
  weft::LeaderLink link;
  link.remote_leader = remote_leader;
  link.tag = tag;
  Comm* peer = nullptr;
  link.leader_args = capi::intra_comm_arg(peer_comm, "peer_comm", &peer);
  if (!link.leader_args.ok()) return link;
  if (remote_leader < 0 || remote_leader >= peer->size) {
    link.leader_args = Status::error(
        MPI_ERR_RANK, "invalid rank remote_leader=" + std::to_string(remote_leader) + " (" +
                          peer->display_name() + " has " + std::to_string(peer->size) + " ranks)");
  } else if (remote_leader == peer->rank) {
    link.leader_args = Status::error(
        MPI_ERR_RANK, "invalid rank remote_leader=" + std::to_string(remote_leader) +
                          ": that is the local leader itself (the groups must be disjoint)");
  } else {
    link.peer = peer;
  }
  return link;
}

}  // namespace

extern "C" {

int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                          int remote_leader, int tag, MPI_Comm* newintercomm) {
  constexpr const char* fn = "MPI_Intercomm_create";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(local_comm, fn, capi::intra_comm_arg(local_comm, "local_comm", &c));
  if (local_leader < 0 || local_leader >= c->size) {
    return capi::report(
        local_comm, fn,
        Status::error(MPI_ERR_RANK, "invalid rank local_leader=" + std::to_string(local_leader) +
                                        " (" + c->display_name() + " has " +
                                        std::to_string(c->size) + " ranks)"));
  }
  WEFT_CHECK(local_comm, fn, capi::check_send_tag(tag, "tag"));
  WEFT_CHECK(local_comm, fn, capi::check_not_null(newintercomm, "newintercomm"));
  weft::LeaderLink link;
  if (c->rank == local_leader) link = leader_link(peer_comm, remote_leader, tag);
  return capi::report(local_comm, fn, weft::intercomm_create(*c, local_leader, link, newintercomm));
}

int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm) {
  constexpr const char* fn = "MPI_Intercomm_merge";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(intercomm, fn, capi::comm_arg(intercomm, "intercomm", &c));
  WEFT_CHECK(intercomm, fn, capi::check_inter(*c, "intercomm"));
  WEFT_CHECK(intercomm, fn, capi::check_not_null(newintracomm, "newintracomm"));
  return capi::report(intercomm, fn, weft::intercomm_merge(*c, high != 0, newintracomm));
}

int PMPI_Comm_remote_size(MPI_Comm comm, int* size) {
  constexpr const char* fn = "MPI_Comm_remote_size";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_inter(*c, "comm"));
  WEFT_CHECK(comm, fn, capi::check_not_null(size, "size"));
  *size = c->remote_size();
  return MPI_SUCCESS;
}

int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group* group) {
  constexpr const char* fn = "MPI_Comm_remote_group";
  WEFT_REQUIRE_RUNNING(fn);
  Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_inter(*c, "comm"));
  WEFT_CHECK(comm, fn, capi::check_not_null(group, "group"));
  *group = world().groups.add(std::make_shared<const weft::groups::Members>(c->remote_world_ranks),
                              c->session);
  return MPI_SUCCESS;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Intercomm_create)
WEFT_MPI_ALIAS(MPI_Intercomm_merge)
WEFT_MPI_ALIAS(MPI_Comm_remote_size)
WEFT_MPI_ALIAS(MPI_Comm_remote_group)
