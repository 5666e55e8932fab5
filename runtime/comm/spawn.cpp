// MPI_Comm_spawn(_multiple) and the children's side: the root asks the launcher to start the
// children with a fresh port in their environment (WEFT_PARENT_PORT), tells its group how that
// went, and the parents accept on that port while each child's MPI_Init connects to it.
#include <cstdlib>

#include "runtime/comm/connect.hpp"
#include "runtime/comm/create.hpp"
#include "runtime/world.hpp"

namespace weft {
namespace {
constexpr const char* kParentPortVariable = "WEFT_PARENT_PORT";
}  // namespace

Status comm_spawn(Comm& local, int root, const Status& root_args, std::vector<SpawnApp> apps,
                  MPI_Comm* out, int* nprocs) {
  const bool leader = local.rank == root;
  Status at_root = root_args;
  std::string port;
  uint64_t header[2] = {0, 0};  // error class at the root, processes asked for
  for (const SpawnApp& app : apps) header[1] += uint64_t(app.maxprocs);
  if (leader && at_root.ok()) {
    port = open_port();
    for (SpawnApp& app : apps) app.env.push_back(std::string(kParentPortVariable) + "=" + port);
    std::string nspace;
    at_root = world().kvs->spawn(apps, &nspace);
  }
  if (leader) header[0] = uint64_t(at_root.error_class);
  WEFT_TRY(internal_bcast(local, header, sizeof header, root));
  *nprocs = int(header[1]);
  if (leader && !at_root.ok()) return at_root;
  if (header[0] != 0) {
    return Status::error(int(header[0]), "the root (rank " + std::to_string(root) +
                                          ") could not start the processes; see its error");
  }
  Status met = comm_meet(local, root, Side::kAccept, port, out);
  if (leader) close_port(port);
  return met;
}

Status attach_parent() {
  const char* port = std::getenv(kParentPortVariable);
  if (port == nullptr || *port == '\0') return Status::success();
  const std::string name = port;
  unsetenv(kParentPortVariable);  // not for processes this one starts
  World& w = world();
  Comm* comm_world = w.comms.find(MPI_COMM_WORLD);
  WEFT_TRY(comm_meet(*comm_world, 0, Side::kConnect, name, &w.parent));
  w.comms.find(w.parent)->name = "MPI_COMM_PARENT";
  return Status::success();
}

}  // namespace weft
