// Intercommunicators between groups that share no communicator (MPI 4.1 §11.8-§11.10): ports,
// MPI_Comm_accept/MPI_Comm_connect, MPI_Comm_spawn(_multiple) built on them, and
// MPI_Comm_disconnect. The two roots meet through the launcher's directory of names (Kvs
// publish/lookup), each telling the other its group (namespace, rank and transport address of
// every member); then they talk directly to agree on the context pairs.
#pragma once
#include <string>
#include <vector>

#include "runtime/comm/comm.hpp"
#include "runtime/kvs.hpp"

namespace weft {

// Which side of a meeting this group is (the names it publishes and looks up differ).
enum class Side { kAccept, kConnect };

// A new port name, unique in the job ("weft-port:<namespace>:<rank>:<n>").
std::string open_port();
// MPI_Close_port: the connectors' claims on the port (names in the launcher) go with it.
void close_port(const std::string& port);
// MPI_Comm_accept (Side::kAccept) or MPI_Comm_connect: collective over `local`; `port` and
// `root_args` (the root's own argument checks) matter at `root` only. Fails alike on every rank
// when the root's part fails.
Status comm_meet(Comm& local, int root, Side side, const std::string& port, MPI_Comm* out,
                 const Status& root_args = Status::success());
// MPI_Comm_spawn(_multiple): collective over `local`; `apps` and `root_args` (the root's own
// argument checks) matter at `root` only. Each child's MPI_Init connects back (attach_parent);
// *out is the intercommunicator to the children, *nprocs how many were asked for.
Status comm_spawn(Comm& local, int root, const Status& root_args, std::vector<SpawnApp> apps,
                  MPI_Comm* out, int* nprocs);
// In a spawned process's MPI_Init: the intercommunicator to its parents in world().parent;
// nothing for a process that was not spawned.
Status attach_parent();
// MPI_Comm_join: the two processes holding the ends of socket `fd` swap port names over it;
// the lower name accepts, the other connects.
Status comm_join(int fd, MPI_Comm* out);
// MPI_Comm_disconnect: waits until this process's sends have arrived and every member has
// reached the call, then frees the communicator.
Status comm_disconnect(MPI_Comm handle);

}  // namespace weft
